package payments_test

import (
	"context"
	"fmt"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/storage/memstore"
)

// Example embeds the engine in-process on the in-memory store: it reads the
// seeded platform configuration and creates an API token.
func Example() {
	ctx := context.Background()
	store := memstore.New()
	defer store.Close()
	eng, err := payments.New(payments.Config{Store: store, Platform: payments.PlatformSeed{Currencies: []string{"USD", "EUR"}}})
	if err != nil {
		panic(err)
	}
	defer eng.Close()

	cfg, _ := eng.Platform.Config(ctx)
	fmt.Println("currencies:", len(cfg.SupportedCurrencies), "regulated:", cfg.IsRegulatedFinancialInstitution)

	tok, _ := eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "backend", Permissions: []payments.Permission{payments.PermView}})
	_, err = eng.Platform.Authenticate(ctx, tok.ClientID, "wrong secret")
	fmt.Println("wrong secret:", payments.CodeOf(err))
	got, _ := eng.Platform.Authenticate(ctx, tok.ClientID, tok.ClientSecret)
	fmt.Println("authenticated:", got.Name, got.Permissions)
	// Output:
	// currencies: 2 regulated: false
	// wrong secret: UNAUTHORIZED
	// authenticated: backend [VIEW]
}
