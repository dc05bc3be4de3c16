package payments

import "time"

// quotesArea declares the quotes area's tables and due work: quotes and
// transactions, the settlement schedule and the rail's reports, incoming
// payments and their approvals, invitations and receiver lookups.
func quotesArea(e *handle, cfg Config) areaDef {
	st := &quotesState{rail: cfg.Rail, source: cfg.Rates, directory: cfg.Directory, incomingApproval: cfg.IncomingApproval}
	if st.rail == nil {
		st.rail = defaultRail{}
	}
	return areaDef{
		state: []slotEntry{quotesSlot.with(st)},
		tables: []tableDef{
			{name: tableQuotes, record: func() any { return new(quoteRecord) },
				ix: indexed(tableQuotes, func(x *quoteRecord) time.Time { return x.CreatedAt },
					every[quoteRecord](),
					ix(ixCustomer, func(x *quoteRecord) string { return x.CustomerID }))},
			{name: tableTransactions, record: func() any { return new(Transaction) },
				ix: indexed(tableTransactions, func(x *Transaction) time.Time { return x.CreatedAt },
					every[Transaction](),
					ix(ixCustomer, func(x *Transaction) string { return x.CustomerID }),
					ix(ixPlatform, func(x *Transaction) string { return x.PlatformCustomerID }),
					ix(ixStatus, func(x *Transaction) string { return string(x.Status) }),
					ix(ixType, func(x *Transaction) string { return x.Type }),
					ixMany(ixAccount, func(x *Transaction, out []string) []string {
						return appendValues(out, x.Source.AccountID, x.Source.UmaAddress, x.Destination.AccountID, x.Destination.UmaAddress)
					}),
					ixMany(ixReference, func(x *Transaction, out []string) []string {
						if x.Refund != nil {
							return appendValues(out, x.QuoteID, x.Refund.Reference)
						}
						return appendValues(out, x.QuoteID)
					}))},
			{name: tableSettlementsDue},
			{name: tableSettlementsByTx},
			{name: tableQuoteExpiry},
			{name: tableRailReports},
			{name: tableIncomingDue},
			{name: tableApprovals},
			{name: tableApprovalsDue},
			{name: tableInvitations, record: func() any { return new(Invitation) }},
			{name: tableLookups, record: func() any { return new(lookupRecord) }},
		},
		intents: railIntentKinds(e),
		hooks:   approvalHooks(e, cfg.IncomingApproval),
		due: []dueWork{
			{table: tableSettlementsDue, apply: applySettlementDue},
			{table: tableIncomingDue, apply: applyIncomingDue},
			{table: tableQuoteExpiry, apply: applyQuoteExpiry},
			{table: tableApprovalsDue, apply: applyApprovalTimeout},
		},
	}
}

// quotesState is the quotes area's state: the rail payments go to, the
// rate source and its cache, the directory, whether incoming payments wait
// for approval, and the records this engine stored lately.
type quotesState struct {
	rail             Rail
	source           RateSource
	rates            rateCache
	directory        Directory
	incomingApproval bool
	txs              storedCache[Transaction] // transactions stored, by id (transactions.go)
	quotes           storedCache[quoteRecord] // quotes stored, by id (settlement.go)
	intents          storedCache[railIntent]  // rail intents stored, by id (rail_intents.go)
	contended        contendedCache
}

var quotesSlot slot[quotesState]
