package httpapi

import "github.com/paygrid/payments"

// Permissions named by routes. Reads (perm "") accept any valid token;
// a route names the permission its writes need, and serve refuses a token
// without it (403 FORBIDDEN naming it) before the body is read.
const (
	manage   = payments.PermManage
	transact = payments.PermTransact
)

// routes is the route table of the API: one list per area, in the files
// named after the area. Order does not matter: net/http patterns pick the
// most specific match (GET /customers/end-user-terms wins over GET
// /customers/{customerId}), and registering one method and pattern twice
// panics in New, so a clash between two areas' lists is found at start.
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
		sandboxLedgerRoutes(),
		walletRoutes(),
	} {
		all = append(all, area...)
	}
	return all
}
