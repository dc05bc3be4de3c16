package payments_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

// absentCitation matches citations of documents the repository does not
// hold: the design notes' numbered sections ("spec 2.5", "spec section 7")
// and their companions.
var absentCitation = regexp.MustCompile(`wire-facts|spec-vs-reference|\bspec (section )?[0-9]|\bsection [0-9]+(\.[0-9]+)? of the spec`)

// docPath matches a document named by its path, such as ARCHITECTURE.md.
var docPath = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)

// TestDocs_CiteOnlyWhatIsHere: no Go file, README.md or ARCHITECTURE.md
// cites a document a reader of the repository does not have (the design
// notes' numbered sections), and every document named by path (X.md)
// exists, beside the file that names it or at the repository root.
func TestDocs_CiteOnlyWhatIsHere(t *testing.T) {
	files := []string{"README.md", "ARCHITECTURE.md"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && path != "docs_test.go" {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, len(files), 100, "the walk found too few files")
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			if m := absentCitation.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, a document the repository does not hold: say what it means in place", f, i+1, m)
			}
			for _, doc := range docPath.FindAllString(line, -1) {
				if _, err := os.Stat(filepath.Join(filepath.Dir(f), doc)); err == nil {
					continue
				}
				if _, err := os.Stat(doc); err != nil {
					t.Errorf("%s:%d names %s, which is not in the repository", f, i+1, doc)
				}
			}
		}
	}
}
