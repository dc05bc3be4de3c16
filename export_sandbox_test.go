package payments

// StateTables and TokenTables expose the tables of the sandbox state, as
// the areas register them, to the external tests
// (TestSandboxState_TablesComplete).
var StateTables, TokenTables = func() ([]string, []string) {
	h := &handle{core: &core{}}
	h.reg.register(append([]areaDef{kernelArea(&h.reg)}, areas(h, Config{})...)...)
	return h.reg.stateTables(), h.reg.credentialTables()
}()
