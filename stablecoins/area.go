package stablecoins

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Area declares the stablecoins area's tables and due work:
// provider links, registered stablecoins with their symbols and tokens,
// and mint and burn operations with their schedule. payments.New registers
// it with payments.Config.Stablecoins; a nil provider refuses every call
// with STABLECOIN_PROVIDER_ERROR. The area takes no other options.
func Area(e *engine.Handle, provider StablecoinProvider) engine.AreaDef {
	if provider == nil {
		provider = noStablecoins{}
	}
	st := &stablecoinsState{Provider: provider}
	return engine.AreaDef{
		Codes: codes,
		State: []engine.SlotEntry{stablecoinsSlot.With(st)},
		Tables: []engine.TableDef{
			{Name: tableStablecoinLinks, Record: func() any { return new(linkRecord) },
				Ix: engine.Indexed(tableStablecoinLinks, func(x *linkRecord) time.Time { return x.CreatedAt },
					engine.Every[linkRecord](),
					engine.Ix(engine.IxStatus, func(x *linkRecord) string { return string(x.Status) }))},
			{Name: tableStablecoinLinkKeys},
			{Name: tableStablecoins, Record: func() any { return new(Stablecoin) },
				Ix: engine.Indexed(tableStablecoins, func(x *Stablecoin) time.Time { return x.CreatedAt },
					engine.Every[Stablecoin](),
					engine.Ix(engine.IxStatus, func(x *Stablecoin) string { return string(x.IssuanceStatus) }),
					engine.Ix(ixOpsStatus, func(x *Stablecoin) string { return string(x.ServiceOperationsStatus) }))},
			{Name: tableStablecoinSymbols},
			{Name: tableStablecoinTokens},
			{Name: tableStablecoinOps, Record: func() any { return new(opRecord) },
				Ix: engine.Indexed(tableStablecoinOps, func(x *opRecord) time.Time { return x.CreatedAt },
					engine.Ix(ixCoin, func(x *opRecord) string { return x.StablecoinID }),
					engine.Ix(ixCoinType, func(x *opRecord) string { return x.StablecoinID + "/" + string(x.OperationType) }))},
			{Name: tableStablecoinOpsDue},
		},
		Due: []engine.DueWork{{Table: tableStablecoinOpsDue, Apply: applyStablecoinOpDue}},
	}
}

// stablecoinsState is the stablecoins area's state: the issuer platform.
type stablecoinsState struct{ Provider StablecoinProvider }

// stablecoinsSlot finds the stablecoins area's state on an engine handle.
var stablecoinsSlot engine.Slot[stablecoinsState]
