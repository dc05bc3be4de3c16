package wirecheck_test

import (
	"os"
	"testing"

	"github.com/paygrid/payments/internal/wirecheck"
)

// TestMain runs the tests, then says so visibly when the reference was not
// found and the wire checks were skipped (a failure in CI).
func TestMain(m *testing.M) {
	os.Exit(wirecheck.ReportAbsence("internal/wirecheck", m.Run(), os.Stderr))
}
