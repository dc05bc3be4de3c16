package quotes

import (
	"time"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
	"github.com/paygrid/payments/quotes/rates"
	"github.com/paygrid/payments/rails"
)

// Area declares the quotes area's tables and due work: quotes and
// transactions, the settlement schedule and the rail's reports (package
// railside's, with its state, intents and due work), incoming
// payments and their approvals, and receiver lookups (invitations declare
// theirs: invitations.Area). payments.New registers it; a nil cfg.Rail
// becomes rails.Default.
//
// The due work is applied one item per transaction, in the order listed:
// rail outcomes whose time came (railside.Due), delayed sandbox
// receipts, quote expiries and approval windows that closed.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	if cfg.Rail == nil {
		cfg.Rail = rails.Default{}
	}
	st := &quotesState{Options: cfg}
	return engine.AreaDef{
		Codes: codes,
		State: []engine.SlotEntry{quotesSlot.With(st), rates.State(cfg.Rates),
			railside.State(railside.Options{Rail: cfg.Rail, Known: txStored, Settle: settle})},
		Tables: append([]engine.TableDef{
			{Name: tableQuotes, Record: func() any { return new(Record) },
				Ix: engine.Indexed(tableQuotes, func(x *Record) time.Time { return x.CreatedAt },
					engine.Every[Record](),
					engine.Ix(ixCustomer, func(x *Record) string { return x.CustomerID })),
				Rows: &engine.Rows{Columns: []engine.Column{
					engine.TextColumn("status", "status"),
					engine.TextColumn("customer_id", "customerId"),
					engine.TextColumn("receiver_customer_id", "receiverCustomerId"),
					engine.TextColumn("source_type", "source.sourceType"),
					engine.TextColumn("source_account_id", "source.accountId"),
					engine.TextColumn("destination_type", "destination.destinationType"),
					engine.TextColumn("destination_account_id", "destination.accountId"),
					engine.TextColumn("sending_currency", "sendingCurrency.code").Names("sendingCurrency"),
					engine.TextColumn("receiving_currency", "receivingCurrency.code").Names("receivingCurrency"),
					engine.BigintColumn("total_sending_amount", "totalSendingAmount"),
					engine.BigintColumn("total_receiving_amount", "totalReceivingAmount"),
					engine.NumericColumn("exchange_rate", "exchangeRate"),
					engine.BigintColumn("fees_included", "feesIncluded"),
					engine.TextColumn("transaction_id", "transactionId"),
					engine.TimeColumn("created_at", "createdAt"),
					engine.TimeColumn("expires_at", "expiresAt"),
					// Fees and the rate's make-up: what a finance team sums.
					engine.BigintColumn("platform_fees_included", "platformFeesIncluded"),
					engine.BigintColumn("service_fees", "serviceFees"),
					engine.BigintColumn("counterparty_fixed_fee", "rateDetails.counterpartyFixedFee"),
					engine.BigintColumn("service_api_fixed_fee", "rateDetails.serviceApiFixedFee"),
					engine.BigintColumn("service_api_variable_fee_amount", "rateDetails.serviceApiVariableFeeAmount"),
					engine.NumericColumn("counterparty_multiplier", "rateDetails.counterpartyMultiplier"),
					engine.NumericColumn("service_api_multiplier", "rateDetails.serviceApiMultiplier"),
					engine.NumericColumn("service_api_variable_fee_rate", "rateDetails.serviceApiVariableFeeRate"),
					engine.TextColumn("platform_customer_id", "platformCustomerId"),
					engine.TextColumn("rail", "rail"),
					engine.BoolColumn("destination_internal", "destinationInternal"),
				}, Created: "created_at", Lists: map[string][]string{
					engine.IxAll: nil,
					ixCustomer:   {"customer_id"},
				}}},
			{Name: tableTransactions, Record: func() any { return new(Transaction) },
				Ix: engine.Indexed(tableTransactions, func(x *Transaction) time.Time { return x.CreatedAt },
					engine.Every[Transaction](),
					engine.Ix(ixCustomer, func(x *Transaction) string { return x.CustomerID }),
					engine.Ix(ixPlatform, func(x *Transaction) string { return x.PlatformCustomerID }),
					engine.Ix(engine.IxStatus, func(x *Transaction) string { return string(x.Status) }),
					engine.Ix(engine.IxType, func(x *Transaction) string { return string(x.Type) }),
					engine.IxMany(ixAccount, func(x *Transaction, out []string) []string {
						return engine.AppendValues(out, x.Source.AccountID, x.Source.UmaAddress, x.Destination.AccountID, x.Destination.UmaAddress)
					}),
					engine.IxMany(ixReference, func(x *Transaction, out []string) []string {
						if x.Refund != nil {
							return engine.AppendValues(out, x.QuoteID, x.Refund.Reference)
						}
						return engine.AppendValues(out, x.QuoteID)
					})),
				Rows: &engine.Rows{Columns: []engine.Column{
					engine.TextColumn("status", "status"),
					engine.TextColumn("type", "type"),
					engine.TextColumn("direction", "direction"),
					engine.TextColumn("customer_id", "customerId"),
					engine.TextColumn("platform_customer_id", "platformCustomerId"),
					engine.TextColumn("source_account_id", "source.accountId"),
					engine.TextColumn("destination_account_id", "destination.accountId"),
					engine.BigintColumn("sent_amount", "sentAmount.amount"),
					engine.TextColumn("sent_currency", "sentAmount.currency.code").Names("sentAmount.currency"),
					engine.BigintColumn("received_amount", "receivedAmount.amount"),
					engine.TextColumn("received_currency", "receivedAmount.currency.code").Names("receivedAmount.currency"),
					engine.NumericColumn("exchange_rate", "exchangeRate"),
					engine.BigintColumn("fees", "fees"),
					engine.TextColumn("quote_id", "quoteId"),
					engine.TimeColumn("settled_at", "settledAt"),
					engine.TimeColumn("created_at", "createdAt"),
					engine.TimeColumn("updated_at", "updatedAt"),
					engine.TextColumn("source_uma_address", "source.umaAddress"),
					engine.TextColumn("destination_uma_address", "destination.umaAddress"),
					engine.TextColumn("refund_reference", "refund.reference"),
					engine.BigintColumn("platform_fees", "platformFees"),
					engine.TextColumn("payment_rail", "paymentRail"),
					engine.TextColumn("source_type", "source.sourceType"),
					engine.TextColumn("source_currency", "source.currency"),
					engine.TextColumn("destination_type", "destination.destinationType"),
					engine.TextColumn("destination_currency", "destination.currency"),
				}, Indexes: [][]string{{"created_at"}}, Created: "created_at", Lists: map[string][]string{
					engine.IxAll:    nil,
					ixCustomer:      {"customer_id"},
					ixPlatform:      {"platform_customer_id"},
					engine.IxStatus: {"status"},
					engine.IxType:   {"type"},
					ixAccount:       {"source_account_id", "source_uma_address", "destination_account_id", "destination_uma_address"},
					ixReference:     {"quote_id", "refund_reference"},
				}}},
			// Every quote inserts its expiry at the end of the table's
			// time order.
			{Name: tableQuoteExpiry, InsertsAtEnd: true},
			{Name: tableIncomingDue},
			{Name: tableApprovals},
			{Name: tableApprovalsDue},
		}, railside.Tables()...),
		Intents: railside.Intents(e),
		Hooks:   approvalHooks(e, cfg.IncomingApproval),
		Due: []engine.DueWork{
			railside.Due(),
			{Table: tableIncomingDue, Apply: applyIncomingDue},
			{Table: tableQuoteExpiry, Apply: applyQuoteExpiry},
			{Table: tableApprovalsDue, Apply: applyApprovalTimeout},
		},
	}
}

// Options is what payments.New gives the quotes area: the rail payments go
// to, the rate source, the directory, whether incoming payments wait for
// approval, and the hooks of the embedded wallets that sign payments. The
// hooks are owned here and implemented by package wallets, which imports
// this one, so quotes never imports wallets.
type Options struct {
	// Rail carries payouts and pulls (payments.Config.Rail); nil is
	// rails.Default.
	Rail rails.Rail
	// Rates supplies exchange rates (payments.Config.Rates); nil prices
	// same-currency quotes only (QUOTE_RATE_UNAVAILABLE otherwise).
	Rates RateSource
	// Directory resolves receivers beyond the platform
	// (payments.Config.Directory); nil knows nobody.
	Directory Directory
	// IncomingApproval makes incoming UMA payments wait for the platform's
	// decision (Transactions.Decide or the answer to the
	// INCOMING_PAYMENT.PENDING webhook) for ApprovalWindow.
	IncomingApproval bool
	// WalletPayload is the payloadToSign of a quote paid from an embedded
	// wallet (package wallets, wallets.QuotePayload). Required: it is
	// called for every such quote.
	WalletPayload func(q *Record) string
	// CheckWalletSignature checks the stamp over a quote's payloadToSign
	// (package wallets, wallets.CheckQuoteSignature); stamp nil: the caller
	// had no way to send one. Required: ExecuteWith calls it for every
	// execution, inside the transaction, so it must do no I/O.
	CheckWalletSignature func(t *engine.Txn, q *Record, stamp *string) error
}

// quotesState is the quotes area's state: the rail payments go to, the
// rate source and its cache, the directory, whether incoming payments wait
// for approval, and the records this engine stored lately.
type quotesState struct {
	Options
	txs       engine.StoredCache[Transaction] // transactions stored, by id (transactions.go)
	quotes    engine.StoredCache[Record]      // quotes stored, by id (settlement.go)
	contended contendedCache
}

var quotesSlot engine.Slot[quotesState]

// contendedCache remembers the balances the quotes this process created
// draw on (Record.contended), so that executing one later names them
// to the store (Op.Contended) without reading the quote first. A quote
// created by another process, or forgotten when the cache started over,
// executes without the hint.
type contendedCache struct {
	engine.Bounded[[]engine.RecordKey]
}
