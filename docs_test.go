package payments_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// areaPackages are the area packages, whose names programs take from the
// root (aliases.go) instead.
var areaPackages = []string{"platform", "customers", "accounts", "quotes", "cards", "stablecoins", "agents", "wallets"}

// TestExamples_RootNamesOnly keeps the story of the package documentation:
// a program imports the root and the adapters it uses, never an area
// package. The root's examples, and the sandbox's, are such programs.
func TestExamples_RootNamesOnly(t *testing.T) {
	files, err := filepath.Glob("example*_test.go")
	require.NoError(t, err)
	more, err := filepath.Glob("sandbox/example*_test.go")
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	fset := token.NewFileSet()
	for _, f := range files {
		parsed, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, area := range areaPackages {
				if path == module+"/"+area {
					t.Errorf("%s imports the area package %s: use the root's name for it (aliases.go)", f, area)
				}
			}
		}
	}
}
