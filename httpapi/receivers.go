package httpapi

// receiverRoutes serve receiver lookups and the directories.
func receiverRoutes() []route { return nil }
