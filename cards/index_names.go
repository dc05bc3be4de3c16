package cards

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixAccount  = "account"  // the accounts a record moves money between
	ixHolder   = "holder"   // a document's holder, a card's cardholder
	ixPlatform = "platform" // the platform's own id of a record (platformCustomerId, platformCardId)
)
