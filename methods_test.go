package payments_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxMethods is the most methods one type of the module may declare. A
// type past it does several jobs; split it by concern (pgstore's tx keeps
// its ledger methods on the txLedger it embeds).
const maxMethods = 40

// TestModule_SmallMethodSets parses every non-test file of the module and
// fails on any type that declares more than maxMethods methods (counted
// per package and receiver type, promoted methods not counted).
func TestModule_SmallMethodSets(t *testing.T) {
	counts := map[string]int{}
	eachSource(t, parser.SkipObjectResolution, func(path string, f *ast.File) {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			counts[filepath.ToSlash(filepath.Dir(path))+"."+methodReceiver(fn.Recv.List[0].Type)]++
		}
	})
	if counts["storage/pgstore.tx"] == 0 || len(counts) < 100 {
		t.Fatalf("counted too little: %d types, pgstore.tx %d", len(counts), counts["storage/pgstore.tx"])
	}
	for typ, n := range counts {
		if n > maxMethods {
			t.Errorf("%s declares %d methods (at most %d)", typ, n, maxMethods)
		}
	}
}

// eachSource parses every non-test Go file of the module (hidden and
// testdata folders left out) with mode and calls fn with its path and
// syntax, as the import tests read the module.
func eachSource(t *testing.T, mode parser.Mode, fn func(path string, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
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
		f, err := parser.ParseFile(fset, path, nil, mode)
		if err != nil {
			return err
		}
		fn(path, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// methodReceiver names the type of a method's receiver (T for T, *T, T[K]).
func methodReceiver(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
