package records

// The enums quotes and transactions carry besides their statuses
// (status.go) and the locked side (pricing.LockedSide). Each is a string
// type, so a request written with the wire's words ("ACCOUNT") still
// compiles; the constants are the words the engine compares with.

// SourceType is what a quote's or a transaction's source is (reference
// QuoteSource and TransactionSourceOneOf sourceType).
type SourceType string

// Source types (payments.SourceAccount, ...).
const (
	// SourceAccount is an internal account, or an external account a
	// quote pulls from (Source.AccountID).
	SourceAccount SourceType = "ACCOUNT"
	// SourceRealtimeFunding is a payment made when the quote is funded
	// (Source.Currency, Source.CustomerID).
	SourceRealtimeFunding SourceType = "REALTIME_FUNDING"
	// SourceUMAAddress is the sender of an incoming UMA payment, on a
	// transaction only (TxParty.UmaAddress).
	SourceUMAAddress SourceType = "UMA_ADDRESS"
)

// DestinationType is what a quote's or a transaction's destination is
// (reference TransactionDestinationType).
type DestinationType string

// Destination types (payments.DestinationAccount, ...).
const (
	// DestinationAccount is an internal or external account
	// (Destination.AccountID).
	DestinationAccount DestinationType = "ACCOUNT"
	// DestinationUMAAddress is a UMA address resolved by the request's
	// lookup (Destination.UmaAddress).
	DestinationUMAAddress DestinationType = "UMA_ADDRESS"
)

// TxType says which way a transaction goes (reference TransactionType,
// and CardTransaction's type).
type TxType string

// Transaction types (payments.TxIncoming, ...).
const (
	TxIncoming TxType = "INCOMING" // money arriving: deposits, incoming UMA payments, transfers in
	TxOutgoing TxType = "OUTGOING" // money leaving: executed quotes, transfers out
	TxCard     TxType = "CARD"     // a card transaction (Transaction.Card)
)

// TxDirection says whether a transaction credits or debits the customer's
// account (reference TransactionDirection), independent of its type: an
// ACH pull into the platform is INCOMING and DEBIT.
type TxDirection string

// Transaction directions (payments.TxCredit, ...).
const (
	TxCredit TxDirection = "CREDIT" // funds in
	TxDebit  TxDirection = "DEBIT"  // funds out
)

// PaymentRail is the network a payment settles on (reference PaymentRail):
// what a quote's or transfer's destination.paymentRail may name and what a
// transaction's paymentRail and an exchange rate's destinationPaymentRail
// report. The three crypto networks are this API's own (deviation
// crypto-rails): the reference's PaymentRail names none.
type PaymentRail string

// Payment rails (payments.PaymentRailACH, ...).
const (
	PaymentRailACH            PaymentRail = "ACH"
	PaymentRailACHColombia    PaymentRail = "ACH_COLOMBIA"
	PaymentRailBankTransfer   PaymentRail = "BANK_TRANSFER"
	PaymentRailBreB           PaymentRail = "BRE_B"
	PaymentRailCIPS           PaymentRail = "CIPS"
	PaymentRailFAST           PaymentRail = "FAST"
	PaymentRailFasterPayments PaymentRail = "FASTER_PAYMENTS"
	PaymentRailFedNow         PaymentRail = "FEDNOW"
	PaymentRailInstaPay       PaymentRail = "INSTAPAY"
	PaymentRailMobileMoney    PaymentRail = "MOBILE_MONEY"
	PaymentRailNEFT           PaymentRail = "NEFT"
	PaymentRailPayNow         PaymentRail = "PAYNOW"
	PaymentRailPESONet        PaymentRail = "PESONET"
	PaymentRailPIX            PaymentRail = "PIX"
	PaymentRailRTGS           PaymentRail = "RTGS"
	PaymentRailRTP            PaymentRail = "RTP"
	PaymentRailSEPA           PaymentRail = "SEPA"
	PaymentRailSEPAInstant    PaymentRail = "SEPA_INSTANT"
	PaymentRailSPEI           PaymentRail = "SPEI"
	PaymentRailSWIFT          PaymentRail = "SWIFT"
	PaymentRailUnionPay       PaymentRail = "UNIONPAY"
	PaymentRailUPI            PaymentRail = "UPI"
	PaymentRailWire           PaymentRail = "WIRE"

	// The crypto networks: what a crypto payout settles on.
	PaymentRailLightning PaymentRail = "LIGHTNING"
	PaymentRailSolana    PaymentRail = "SOLANA"
	PaymentRailSpark     PaymentRail = "SPARK"
)

// RefundStatus is where the refund of a failed outgoing payment stands
// (reference TransactionRefund status).
type RefundStatus string

// Refund statuses (payments.RefundPending, ...).
const (
	RefundPending   RefundStatus = "PENDING"   // the money is still held
	RefundCompleted RefundStatus = "COMPLETED" // it is back with the sender
	RefundFailed    RefundStatus = "FAILED"    // it stays held until an operator resolves it
)
