package httpapi

// customerRoutes serve the customers area.
func customerRoutes() []route {
	return nil
}
