package payments_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// groupDirs are the packages whose groups the facade exposes, and the area
// each names its operations under.
var groupDirs = map[string]string{
	"accounts": "accounts", "agents": "agents", "cards": "cards", "customers": "customers", "platform": "platform",
	"quotes": "quotes", "stablecoins": "stablecoins", "wallets": "wallets",
	".": "sandbox", "internal/engine": "webhooks",
	"quotes/invitations": "quotes", "quotes/railside": "quotes",
}

// subGroups are the packages split out of an area whose Service is one of
// the area's groups, by the group's name: its operations keep the names
// they had in the area ("Invitations.Create").
var subGroups = map[string]string{"quotes/invitations": "Invitations"}

// TestOperations_EveryGroupMethodBegins keeps the Observer's view of the
// engine whole: every exported method of a group (a type struct{ e
// *engine.Handle } whose methods the facade exposes) that takes a context
// and returns an error begins its operation, named after itself, and ends
// it with its error:
//
//	ctx, op := begin(ctx, s.e, "Transactions.Get") // or s.e.Begin(ctx, "<area>", ...)
//	defer op.End(&err)
//
// or runs a declared operation (engine.Run, which begins and ends it),
// declared with that area and name:
//
//	return engine.Run(ctx, s.e, getTransaction, id) // var getTransaction = engine.Op[...]{Area: "quotes", Name: "Transactions.Get", ...}
//
// The name is the method's, qualified by its group unless the group is
// the area's Service (or is named for the area: the root's Sandbox, the
// kernel's Webhooks).
func TestOperations_EveryGroupMethodBegins(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for dir, area := range groupDirs {
		files := map[string]*ast.File{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != dir {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			files[path] = f
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		groups := groupTypes(files)
		ops := declarations(files)
		for path, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || !fd.Name.IsExported() || !takesContextReturnsError(fd) {
					continue
				}
				typ := receiverType(fd)
				if !groups[typ] {
					continue
				}
				checked++
				name, group := fd.Name.Name, typ
				if g, ok := subGroups[dir]; ok && typ == "Service" {
					group = g
				}
				if group != "Service" && !strings.EqualFold(group, area) {
					name = group + "." + name
				}
				msg := beginsOperation(fd, area, name)
				if run, ok := runsOperation(fd); ok {
					msg = declaresOperation(ops, run, area, name)
				}
				if msg != "" {
					t.Errorf("%s: %s.%s %s", path, typ, fd.Name.Name, msg)
				}
			}
		}
	}
	if checked < 150 {
		t.Fatalf("checked only %d group methods; is the test running from the module root?", checked)
	}
}

// groupTypes are the exported types of files declared struct{ e
// *engine.Handle } (struct{ e *Handle } in the kernel).
func groupTypes(files map[string]*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || len(st.Fields.List) != 1 || len(st.Fields.List[0].Names) != 1 || st.Fields.List[0].Names[0].Name != "e" {
				return true
			}
			if star, ok := st.Fields.List[0].Type.(*ast.StarExpr); ok {
				if s := spell(star.X); s == "engine.Handle" || s == "Handle" {
					out[ts.Name.Name] = true
				}
			}
			return true
		})
	}
	return out
}

// spell spells a type expression.
func spell(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return spell(x.X) + "." + x.Sel.Name
	}
	return fmt.Sprintf("%T", x)
}

// takesContextReturnsError reports a method whose first parameter is a
// context.Context and whose last result is an error.
func takesContextReturnsError(fd *ast.FuncDecl) bool {
	ps, rs := fd.Type.Params.List, fd.Type.Results
	return len(ps) > 0 && spell(ps[0].Type) == "context.Context" && rs != nil && spell(rs.List[len(rs.List)-1].Type) == "error"
}

// receiverType is the name of fd's receiver's type.
func receiverType(fd *ast.FuncDecl) string {
	rt := fd.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		rt = s.X
	}
	return spell(rt)
}

// beginsOperation returns what is wrong with the first two statements of
// fd, "" when they begin and end the operation area/name.
func beginsOperation(fd *ast.FuncDecl, area, name string) string {
	if len(fd.Body.List) < 2 {
		return "does not begin an operation"
	}
	as, ok := fd.Body.List[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 || spell(as.Lhs[0]) != "ctx" || spell(as.Lhs[1]) != "op" {
		return "does not begin with ctx, op := begin(...)"
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return "does not begin with a call"
	}
	var got []string
	for _, a := range call.Args {
		if lit, ok := a.(*ast.BasicLit); ok {
			s, _ := strconv.Unquote(lit.Value)
			got = append(got, s)
		}
	}
	switch fn := spell(call.Fun); {
	case fn == "begin" && len(got) == 1 && got[0] == name:
	case strings.HasSuffix(fn, ".e.Begin") && len(got) == 2 && got[0] == area && got[1] == name:
	default:
		return fmt.Sprintf("begins %s%q, not operation %s %q", fn, got, area, name)
	}
	def, ok := fd.Body.List[1].(*ast.DeferStmt)
	if !ok || spell(def.Call.Fun) != "op.End" || len(def.Call.Args) != 1 {
		return "does not defer op.End(&err)"
	}
	if u, ok := def.Call.Args[0].(*ast.UnaryExpr); !ok || u.Op != token.AND || spell(u.X) != "err" {
		return "does not defer op.End(&err)"
	}
	res := fd.Type.Results.List
	if last := res[len(res)-1]; len(last.Names) == 0 || last.Names[len(last.Names)-1].Name != "err" {
		return "does not name its error result err"
	}
	return ""
}

// runsOperation returns the engine.Op argument of a method whose body runs
// a declared operation: "return engine.Run(ctx, x.e, op, ...)", or
// "_, err := engine.Run(ctx, x.e, op, ...)" then "return err" (or a
// return of the answer's parts ending with err).
func runsOperation(fd *ast.FuncDecl) (ast.Expr, bool) {
	var call ast.Expr
	switch body := fd.Body.List; {
	case len(body) == 1:
		if r, ok := body[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			call = r.Results[0]
		}
	case len(body) == 2:
		as, ok := body[0].(*ast.AssignStmt)
		r, rok := body[1].(*ast.ReturnStmt)
		if ok && rok && len(as.Rhs) == 1 && len(r.Results) >= 1 && spell(r.Results[len(r.Results)-1]) == "err" {
			call = as.Rhs[0]
		}
	}
	c, ok := call.(*ast.CallExpr)
	if !ok || len(c.Args) < 3 || spell(c.Args[0]) != "ctx" || !strings.HasSuffix(spell(c.Args[1]), ".e") {
		return nil, false
	}
	fn := c.Fun
	if ix, ok := fn.(*ast.IndexListExpr); ok {
		fn = ix.X
	}
	if spell(fn) != "engine.Run" {
		return nil, false
	}
	return c.Args[2], true
}

// declarations are the values of the package-level variables of files and
// the results their functions return, by name: where an operation's
// declaration is found.
func declarations(files map[string]*ast.File) map[string][]ast.Expr {
	out := map[string][]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
						for i, n := range vs.Names {
							out[n.Name] = append(out[n.Name], vs.Values[i])
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Body == nil {
					continue
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false
					}
					if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
						out[d.Name.Name] = append(out[d.Name.Name], r.Results[0])
					}
					return true
				})
			}
		}
	}
	return out
}

// declaresOperation returns what is wrong with the operation x (a
// variable, or a call of a function returning one) that a method runs, ""
// when it is an engine.Op literal of area and name.
func declaresOperation(ops map[string][]ast.Expr, x ast.Expr, area, name string) string {
	for range 3 { // a variable set by a call of a function returning the literal
		switch v := x.(type) {
		case *ast.Ident:
			if len(ops[v.Name]) != 1 {
				return fmt.Sprintf("runs %s, which is not one declaration", v.Name)
			}
			x = ops[v.Name][0]
			continue
		case *ast.CallExpr:
			fn := v.Fun
			if ix, ok := fn.(*ast.IndexExpr); ok {
				fn = ix.X
			}
			if id, ok := fn.(*ast.Ident); ok && len(ops[id.Name]) == 1 {
				x = ops[id.Name][0]
				continue
			}
			return "runs an operation made by " + spell(fn) + ", which returns no one declaration"
		}
		break
	}
	lit, ok := x.(*ast.CompositeLit)
	if !ok {
		return "runs an operation that is not an engine.Op literal"
	}
	got := map[string]string{}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if bl, ok := kv.Value.(*ast.BasicLit); ok {
			got[spell(kv.Key)], _ = strconv.Unquote(bl.Value)
		}
	}
	if got["Area"] != area || got["Name"] != name {
		return fmt.Sprintf("runs operation %s %q, not %s %q", got["Area"], got["Name"], area, name)
	}
	return ""
}
