package platform

// Index names of the area's tables (engine.Indexed): each table names its
// own, so two areas may use the same name for different values.
const (
	ixName = "name" // a token's name
)
