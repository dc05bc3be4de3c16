package accounts

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixCurrency = "currency" // side and currency of an account
	ixCustomer = "customer" // the customer a record belongs to
	ixSide     = "side"     // whose accounts: "customer" or "platform"
)
