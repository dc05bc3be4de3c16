package customers

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixCustomer = "customer" // the customer a record belongs to
	ixHolder   = "holder"   // a document's holder, a card's cardholder
	ixPlatform = "platform" // the platform's own id of a record (platformCustomerId, platformCardId)
	ixUma      = "uma"      // a customer's UMA address
)
