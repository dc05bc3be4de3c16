package payments_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// areaDirs are the area packages, and the packages split out of an area
// (quotes/invitations), each the owner of the tables it declares (its
// AreaDef).
var areaDirs = []string{"platform", "customers", "accounts", "quotes", "quotes/invitations", "quotes/lookups", "quotes/rates", "quotes/railside", "cards", "stablecoins", "agents", "wallets"}

// crossAreaExceptions are the files allowed to reach into another area's
// tables: none. The map stays so that an exception is a visible line, and
// the check fails for a listed file once it no longer needs it.
var crossAreaExceptions = map[string]bool{}

// TestTables_PrivateToTheirArea checks, over the source, that an area's
// tables are its own: no area package names another area's table, by its
// constant (an exported table name, none left) or by its name's string
// ("internal_accounts"), and storage/pgstore names no area table. An area
// that needs another's records calls the owner's functions (its intx.go),
// which is then the owner's access. The check is static, so it is exact:
// it sees every path through the code, not only those a scenario runs, and
// it needs no attribution of accesses at run time. A table is an area's
// when the area declares its name as a string constant named table... or
// Table... in its own package. A table named like an area (platform,
// customers, quotes) is checked by its constant only: an area's name is
// written in other places (an operation's Area, an index's name).
func TestTables_PrivateToTheirArea(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(dir string) map[string]*ast.File {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]*ast.File{}
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.ToSlash(p)] = f
		}
		return files
	}
	owner := map[string]string{}     // table name -> area
	constants := map[string]string{} // area.Constant -> table name
	sources := map[string]map[string]*ast.File{}
	for _, area := range areaDirs {
		sources[area] = parse(area)
		for _, f := range sources[area] {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i >= len(vs.Values) || !(strings.HasPrefix(n.Name, "table") || strings.HasPrefix(n.Name, "Table")) {
							continue
						}
						lit, ok := vs.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						name, _ := strconv.Unquote(lit.Value)
						owner[name] = area
						constants[filepath.Base(area)+"."+n.Name] = name
					}
				}
			}
		}
	}
	if len(owner) < 30 {
		t.Fatalf("found only %d area tables; is the test running from the module root?", len(owner))
	}
	var bad []string
	used := map[string]bool{}
	check := func(path, area string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name != filepath.Base(area) {
					if name, ok := constants[id.Name+"."+x.Sel.Name]; ok {
						if crossAreaExceptions[path] {
							used[path] = true
						} else {
							bad = append(bad, path+": names "+id.Name+"."+x.Sel.Name+" ("+owner[name]+"'s table "+name+")")
						}
					}
				}
			case *ast.BasicLit:
				if x.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(x.Value)
				if o, ok := owner[s]; ok && o != area && !isArea(s) {
					if crossAreaExceptions[path] {
						used[path] = true
					} else {
						bad = append(bad, path+": names "+o+"'s table "+strconv.Quote(s))
					}
				}
			}
			return true
		})
	}
	for _, area := range areaDirs {
		for path, f := range sources[area] {
			check(path, area, f)
		}
	}
	for path, f := range parse("storage/pgstore") {
		check(path, "pgstore", f)
	}
	for path := range crossAreaExceptions {
		if !used[path] {
			bad = append(bad, path+": no longer names another area's table; remove its exception")
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// isArea reports whether s is the name of an area.
func isArea(s string) bool {
	for _, a := range areaDirs {
		if a == s {
			return true
		}
	}
	return false
}
