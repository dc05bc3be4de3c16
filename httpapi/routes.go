package httpapi

import "github.com/paygrid/payments"

// Permissions named by routes. Reads (perm "") accept any valid token.
const (
	manage   = payments.PermManage
	transact = payments.PermTransact
)

// routes is the route table of the API: one list per area, in the files
// named after the area.
func (h *Handler) routes() []route {
	var all []route
	for _, area := range [][]route{
		platformRoutes(),
		customerRoutes(),
		accountRoutes(),
		quoteRoutes(),
		lookupRoutes(),
		cardRoutes(),
		agentRoutes(),
		stablecoinRoutes(),
		invitationRoutes(),
		scaRoutes(),
		sandboxRoutes(),
		sandboxWebhookRoutes(),
		sandboxRequestRoutes(),
		walletRoutes(),
	} {
		all = append(all, area...)
	}
	return all
}
