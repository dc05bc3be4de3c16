package agents

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixCustomer = "customer" // the customer a record belongs to
)
