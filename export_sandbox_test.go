package payments

// StateTables exposes the tables of the sandbox state to the external tests
// (TestSandboxState_TablesComplete).
var StateTables, TokenTables = stateTables, tokenTables
