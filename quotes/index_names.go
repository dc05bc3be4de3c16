package quotes

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixAccount   = "account"   // the accounts a record moves money between
	ixCustomer  = "customer"  // the customer a record belongs to
	ixPlatform  = "platform"  // the platform's own id of a record (platformCustomerId, platformCardId)
	ixReference = "reference" // the quote and refund references of a transaction
)
