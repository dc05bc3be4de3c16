package httpapi_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/paygrid/payments/internal/wirecheck"
)

// notServed are the reference's operations this server does not serve yet
// (none now). Everything else must be reached by at least one wire-checked
// exchange in this package's tests.
var notServed = []string{}

// TestMain runs the tests and then, on a full run with the reference
// present, fails if a served operation was never exercised through the
// wire check; without the reference it says the wire checks were skipped
// (a failure in CI).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		if missing := uncovered(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "wire coverage: %d served operation(s) never exercised through the wire check:\n  %s\n",
				len(missing), strings.Join(missing, "\n  "))
			code = 1
		}
	}
	os.Exit(wirecheck.ReportAbsence("httpapi", code, os.Stderr))
}

func uncovered() []string {
	var out []string
	for _, op := range wirecheck.Loaded().Uncovered() {
		skip := false
		for _, n := range notServed {
			skip = skip || strings.Contains(op, n)
		}
		if !skip {
			out = append(out, op)
		}
	}
	return out
}
