package payments

import "time"

// stablecoinsArea declares the stablecoins area's tables and due work:
// provider links, registered stablecoins with their symbols and tokens,
// and mint and burn operations with their schedule.
func stablecoinsArea(e *handle, cfg Config) areaDef {
	st := &stablecoinsState{provider: cfg.Stablecoins}
	if st.provider == nil {
		st.provider = noStablecoins{}
	}
	return areaDef{
		state: []slotEntry{stablecoinsSlot.with(st)},
		tables: []tableDef{
			{name: tableStablecoinLinks, record: func() any { return new(linkRecord) },
				ix: indexed(tableStablecoinLinks, func(x *linkRecord) time.Time { return x.CreatedAt },
					every[linkRecord](),
					ix(ixStatus, func(x *linkRecord) string { return string(x.Status) }))},
			{name: tableStablecoinLinkKeys},
			{name: tableStablecoins, record: func() any { return new(Stablecoin) },
				ix: indexed(tableStablecoins, func(x *Stablecoin) time.Time { return x.CreatedAt },
					every[Stablecoin](),
					ix(ixStatus, func(x *Stablecoin) string { return string(x.IssuanceStatus) }),
					ix(ixOpsStatus, func(x *Stablecoin) string { return string(x.ServiceOperationsStatus) }))},
			{name: tableStablecoinSymbols},
			{name: tableStablecoinTokens},
			{name: tableStablecoinOps, record: func() any { return new(opRecord) },
				ix: indexed(tableStablecoinOps, func(x *opRecord) time.Time { return x.CreatedAt },
					ix(ixCoin, func(x *opRecord) string { return x.StablecoinID }),
					ix(ixCoinType, func(x *opRecord) string { return x.StablecoinID + "/" + string(x.OperationType) }))},
			{name: tableStablecoinOpsDue},
		},
		due: []dueWork{{table: tableStablecoinOpsDue, apply: applyStablecoinOpDue}},
	}
}

// stablecoinsState is the stablecoins area's state: the issuer platform.
type stablecoinsState struct{ provider StablecoinProvider }

var stablecoinsSlot slot[stablecoinsState]
