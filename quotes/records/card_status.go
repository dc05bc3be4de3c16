package records

// CardTxStatus is a card transaction's status (reference
// CardTransactionStatus): card transactions are listed and read with the
// other transactions.
type CardTxStatus string

// Card transaction statuses (package cards moves them).
const (
	CardAuthorized       CardTxStatus = "AUTHORIZED"        // approved, funds held, nothing cleared yet
	CardPartiallySettled CardTxStatus = "PARTIALLY_SETTLED" // some clearings posted, more expected
	CardSettled          CardTxStatus = "SETTLED"           // closed against the funding source
	CardRefunded         CardTxStatus = "REFUNDED"          // the settled amount was returned in full
	CardException        CardTxStatus = "EXCEPTION"         // the network settled but a pull from the funding source failed
)
