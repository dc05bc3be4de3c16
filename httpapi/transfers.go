package httpapi

// transferRoutes serve the transfers area.
func transferRoutes() []route {
	return nil
}
