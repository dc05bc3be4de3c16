package payments

import "github.com/paygrid/payments/internal/engine"

// StateTables and TokenTables expose the tables of the sandbox state, as
// the areas register them, to the external tests
// (TestSandboxState_TablesComplete).
var StateTables, TokenTables = func() ([]string, []string) {
	h := engine.New(engine.Config{})
	h.Declare(areas(h, Config{})...)
	return h.Registry.StateTables(), h.Registry.CredentialTables()
}()
