package wirecheck_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTestsImportWirecheck guards the package's contract: no non-test
// package of the module imports wirecheck or kin-openapi, so kin-openapi
// never links into the binaries of the library's users.
func TestOnlyTestsImportWirecheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	const self = "github.com/paygrid/payments/internal/wirecheck"
	// -e: packages others are editing may not build right now; their
	// imports are still listed.
	cmd := exec.Command(goBin, "list", "-e", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/paygrid/payments/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] == self {
			continue
		}
		for _, imp := range fields[1:] {
			if imp == self || strings.HasPrefix(imp, "github.com/getkin/kin-openapi") {
				t.Errorf("non-test package %s imports %s; only _test.go files may", fields[0], imp)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
