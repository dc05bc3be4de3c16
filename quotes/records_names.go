package quotes

import "github.com/paygrid/payments/quotes/records"

// The records of quotes and transactions, their vocabulary, state machines
// and codecs live in package quotes/records, a leaf the areas that read
// them share; these are their names as this package has always spelled
// them (the root re-exports them from here).

// Quote is a locked rate and fee for one transfer, as the API shows it
// (records.Quote).
type Quote = records.Quote

// Record is a Quote as stored, with what execution needs (records.Record).
type Record = records.Record

// Source is where a quote's money comes from (records.Source).
type Source = records.Source

// Destination is where a quote's money goes (records.Destination).
type Destination = records.Destination

// RateDetails break a quote's rate and fees down (records.RateDetails).
type RateDetails = records.RateDetails

// Transaction is an incoming, outgoing or card payment
// (records.Transaction).
type Transaction = records.Transaction

// TxParty is a transaction's source or destination (records.TxParty).
type TxParty = records.TxParty

// Refund is the refund of a failed outgoing payment (records.Refund).
type Refund = records.Refund

// CardTransaction is a card authorization and what reconciles against it
// (records.CardTransaction).
type CardTransaction = records.CardTransaction

// CardMerchant is the merchant of a card transaction
// (records.CardMerchant).
type CardMerchant = records.CardMerchant

// CardPullSummary counts a card transaction's pulls from its funding
// source (records.CardPullSummary).
type CardPullSummary = records.CardPullSummary

// CardSummary counts a card transaction's refunds or settlements
// (records.CardSummary).
type CardSummary = records.CardSummary

// Status is a quote's lifecycle state (records.Status).
type Status = records.Status

// Quote statuses (records.Pending, ...).
const (
	Pending              = records.Pending
	PendingAuthorization = records.PendingAuthorization
	Processing           = records.Processing
	Completed            = records.Completed
	Failed               = records.Failed
	Expired              = records.Expired
)

// TxStatus is a transaction's lifecycle state (records.TxStatus).
type TxStatus = records.TxStatus

// Transaction statuses (records.TxPending, ...).
const (
	TxPending              = records.TxPending
	TxPendingAuthorization = records.TxPendingAuthorization
	TxProcessing           = records.TxProcessing
	TxCompleted            = records.TxCompleted
	TxFailed               = records.TxFailed
	TxExpired              = records.TxExpired
	TxRejected             = records.TxRejected
)

// CardTxStatus is a card transaction's status (records.CardTxStatus).
type CardTxStatus = records.CardTxStatus

// Card transaction statuses (records.CardAuthorized, ...).
const (
	CardAuthorized       = records.CardAuthorized
	CardPartiallySettled = records.CardPartiallySettled
	CardSettled          = records.CardSettled
	CardRefunded         = records.CardRefunded
	CardException        = records.CardException
)

// SourceType is what a quote's or a transaction's source is
// (records.SourceType).
type SourceType = records.SourceType

// Source types (records.SourceAccount, ...).
const (
	SourceAccount         = records.SourceAccount
	SourceRealtimeFunding = records.SourceRealtimeFunding
	SourceUMAAddress      = records.SourceUMAAddress
)

// DestinationType is what a quote's or a transaction's destination is
// (records.DestinationType).
type DestinationType = records.DestinationType

// Destination types (records.DestinationAccount, ...).
const (
	DestinationAccount    = records.DestinationAccount
	DestinationUMAAddress = records.DestinationUMAAddress
)

// TxType says which way a transaction goes (records.TxType).
type TxType = records.TxType

// Transaction types (records.TxIncoming, ...).
const (
	TxIncoming = records.TxIncoming
	TxOutgoing = records.TxOutgoing
	TxCard     = records.TxCard
)

// TxDirection says whether a transaction credits or debits the customer's
// account (records.TxDirection).
type TxDirection = records.TxDirection

// Transaction directions (records.TxCredit, ...).
const (
	TxCredit = records.TxCredit
	TxDebit  = records.TxDebit
)

// RefundStatus is where a refund stands (records.RefundStatus).
type RefundStatus = records.RefundStatus

// Refund statuses (records.RefundPending, ...).
const (
	RefundPending   = records.RefundPending
	RefundCompleted = records.RefundCompleted
	RefundFailed    = records.RefundFailed
)

// PaymentRail is the network a payment settles on (records.PaymentRail).
type PaymentRail = records.PaymentRail

// Payment rails (records.PaymentRailACH, ...).
const (
	PaymentRailACH            = records.PaymentRailACH
	PaymentRailACHColombia    = records.PaymentRailACHColombia
	PaymentRailBankTransfer   = records.PaymentRailBankTransfer
	PaymentRailBreB           = records.PaymentRailBreB
	PaymentRailCIPS           = records.PaymentRailCIPS
	PaymentRailFAST           = records.PaymentRailFAST
	PaymentRailFasterPayments = records.PaymentRailFasterPayments
	PaymentRailFedNow         = records.PaymentRailFedNow
	PaymentRailInstaPay       = records.PaymentRailInstaPay
	PaymentRailMobileMoney    = records.PaymentRailMobileMoney
	PaymentRailNEFT           = records.PaymentRailNEFT
	PaymentRailPayNow         = records.PaymentRailPayNow
	PaymentRailPESONet        = records.PaymentRailPESONet
	PaymentRailPIX            = records.PaymentRailPIX
	PaymentRailRTGS           = records.PaymentRailRTGS
	PaymentRailRTP            = records.PaymentRailRTP
	PaymentRailSEPA           = records.PaymentRailSEPA
	PaymentRailSEPAInstant    = records.PaymentRailSEPAInstant
	PaymentRailSPEI           = records.PaymentRailSPEI
	PaymentRailSWIFT          = records.PaymentRailSWIFT
	PaymentRailUnionPay       = records.PaymentRailUnionPay
	PaymentRailUPI            = records.PaymentRailUPI
	PaymentRailWire           = records.PaymentRailWire
	PaymentRailLightning      = records.PaymentRailLightning
	PaymentRailSolana         = records.PaymentRailSolana
	PaymentRailSpark          = records.PaymentRailSpark
)
