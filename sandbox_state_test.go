package payments_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
)

// TestSandboxState_TablesComplete keeps the sandbox state's table list in
// step with the tables the engine writes: every string constant named
// table... of the root, the kernel and the area packages must be exported
// and reset (or be a token table, which state control leaves alone), so an
// export is the whole state. The sandbox clock's own table is left alone
// too: the clock never goes back, through a reset or an import as through
// a restart.
func TestSandboxState_TablesComplete(t *testing.T) {
	var files []string
	for _, dir := range []string{".", "internal/engine", "platform", "customers", "accounts", "quotes", "quotes/invitations", "quotes/railside", "cards", "stablecoins", "agents", "wallets"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	known := append(slices.Clone(payments.StateTables), payments.TokenTables...)
	found := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range vs.Names {
				lit, ok := valueAt(vs, i).(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || !strings.HasPrefix(name.Name, "table") || name.Name == "tableIndexMeta" || name.Name == "tableSandboxClock" {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				found++
				if !slices.Contains(known, v) {
					t.Errorf("table %s (%q) is missing from stateTables in sandbox_state.go: exports would leave it out", name.Name, v)
				}
			}
			return true
		})
	}
	if found < 50 {
		t.Fatalf("found only %d table constants: the scan is broken", found)
	}
}

// valueAt is the i-th value of a const or var spec, or nil.
func valueAt(vs *ast.ValueSpec, i int) ast.Expr {
	if i < len(vs.Values) {
		return vs.Values[i]
	}
	return nil
}

// TestSandbox_ForbiddenOutsideSandbox: state and time control exist
// only in sandbox mode.
func TestSandbox_ForbiddenOutsideSandbox(t *testing.T) {
	env := enginetest.NewEnv(t, func(c *payments.Config) { c.Sandbox = false })
	ctl := env.Eng.Sandbox
	_, err := ctl.Export(ctx)
	enginetest.RequireCode(t, err, payments.CodeForbidden)
	enginetest.RequireCode(t, ctl.Import(ctx, &payments.SandboxState{Format: payments.SandboxStateFormat}), payments.CodeForbidden)
	_, err = ctl.Reset(ctx, true)
	enginetest.RequireCode(t, err, payments.CodeForbidden)
	moved := false
	_, err = ctl.Advance(ctx, payments.ClockAdvance{Duration: time.Hour}, func(time.Time) { moved = true })
	enginetest.RequireCode(t, err, payments.CodeForbidden)
	if moved {
		t.Fatal("the clock moved")
	}
}

// TestSandboxState_ImportsItsEventHistory: an export of an engine with an
// event history (Config.EventHistory, as the sandbox server runs) imports
// again, its delivered events kept at their event ids; before, every
// delivery was refused as "not kept at its id".
func TestSandboxState_ImportsItsEventHistory(t *testing.T) {
	env := enginetest.MoneyEnv(t, func(c *payments.Config) { c.EventHistory = true })
	eng := env.Eng
	if _, err := eng.Sandbox.Fund(ctx, env.USDAccount(t, "Ann Able"), 500); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Webhooks.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Data) == 0 {
		t.Fatal("no delivery in the event history: the test proves nothing")
	}
	state, err := eng.Sandbox.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Sandbox.Import(ctx, state); err != nil {
		t.Fatalf("importing its own export: %v", err)
	}
	after, err := eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Data) != len(before.Data) || after.Data[0].Event.ID != before.Data[0].Event.ID {
		t.Errorf("the event history after the import: %d deliveries, want the %d exported", len(after.Data), len(before.Data))
	}
}
