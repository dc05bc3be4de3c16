package httpapi

// accountRoutes serve the accounts area.
func accountRoutes() []route {
	return nil
}
