package payments_test

import (
	"go/importer"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

// TestAliases_GroupSignatures keeps the facade whole: every named type of
// the module that an exported method of an engine group (a field of
// Engine) takes or returns, directly or inside another such type, is
// reachable from the root as payments.X, so a program written against the
// root names everything it passes and gets.
func TestAliases_GroupSignatures(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module from source")
	}
	fset := token.NewFileSet()
	root, err := importer.ForCompiler(fset, "source", nil).Import(module)
	if err != nil {
		t.Fatal(err)
	}
	reachable := map[*types.TypeName]bool{}
	for _, name := range root.Scope().Names() {
		if tn, ok := root.Scope().Lookup(name).(*types.TypeName); ok && tn.Exported() {
			if n, ok := types.Unalias(tn.Type()).(*types.Named); ok {
				reachable[n.Origin().Obj()] = true
			}
		}
	}
	engine := root.Scope().Lookup("Engine").Type().Underlying().(*types.Struct)
	seen := map[types.Type]bool{}
	var missing []string
	var walk func(typ types.Type, where string)
	walk = func(typ types.Type, where string) {
		typ = types.Unalias(typ)
		if seen[typ] {
			return
		}
		seen[typ] = true
		switch x := typ.(type) {
		case *types.Pointer:
			walk(x.Elem(), where)
		case *types.Slice:
			walk(x.Elem(), where)
		case *types.Array:
			walk(x.Elem(), where)
		case *types.Map:
			walk(x.Key(), where)
			walk(x.Elem(), where)
		case *types.Signature:
			for v := range x.Params().Variables() {
				walk(v.Type(), where)
			}
			for v := range x.Results().Variables() {
				walk(v.Type(), where)
			}
		case *types.Named:
			for targ := range x.TypeArgs().Types() { // iter.Seq2[Customer, error] names Customer
				walk(targ, where)
			}
			obj := x.Origin().Obj()
			if obj.Pkg() == nil || !strings.HasPrefix(obj.Pkg().Path(), module) {
				return // the standard library and other modules
			}
			if !reachable[obj] && obj.Exported() {
				missing = append(missing, obj.Pkg().Name()+"."+obj.Name()+" (in "+where+")")
			}
			if st, ok := x.Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					if f.Exported() {
						walk(f.Type(), where)
					}
				}
			}
		}
	}
	groups := 0
	for f := range engine.Fields() {
		if !f.Exported() {
			continue
		}
		groups++
		ms := types.NewMethodSet(f.Type())
		for sel := range ms.Methods() {
			if m := sel.Obj(); m.Exported() {
				walk(m.Type(), f.Name()+"."+m.Name())
			}
		}
	}
	if groups < 15 {
		t.Fatalf("found only %d engine groups", groups)
	}
	slices.Sort(missing)
	for _, m := range slices.Compact(missing) {
		t.Errorf("%s is not reachable as payments.X", m)
	}
}
