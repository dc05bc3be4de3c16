package payments

// StateTables and TokenTables expose the tables of the sandbox state, as
// the areas register them, to the external tests
// (TestSandboxState_TablesComplete).
var StateTables, TokenTables = func() ([]string, []string) {
	var r registry
	r.register(areas(&handle{core: &core{}}, &r)...)
	return r.stateTables(), r.credentialTables()
}()
