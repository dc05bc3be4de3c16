package payments_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/paygrid/payments"

// pure are the area packages that hold rules without I/O: they never import
// the root package or any adapter.
var pure = map[string]bool{"money": true, "validate": true, "accounts": true, "customers": true,
	"quotes": true, "agents": true, "walletauth": true, "cards": true, "stablecoins": true}

// adapters import the root; the root and the pure packages never import them.
var adapters = []string{"storage", "sandbox", "rails", "httpapi", "webhooks", "examples", "internal", "dashboard"}

// TestImports_DependencyDirection keeps the layering of STYLE.md true: pure
// area packages import neither the root nor adapters, and the root imports
// no adapter. It reads the import lines of every non-test Go file.
func TestImports_DependencyDirection(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		top := strings.Split(dir, "/")[0]
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
			relTop := strings.Split(rel, "/")[0]
			switch {
			case pure[top] && (rel == "" || isAdapter(relTop)):
				t.Errorf("%s: pure package %s imports %s", path, dir, p)
			case dir == "." && isAdapter(relTop):
				t.Errorf("%s: the root package imports the adapter %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files; is the test running from the module root?", checked)
	}
}

func isAdapter(top string) bool {
	for _, a := range adapters {
		if top == a {
			return true
		}
	}
	return false
}
