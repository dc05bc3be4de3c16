// Package genaliases writes the root package's aliases.go: every name the
// facade re-exports from the package that owns it (the kernel, an area, a
// leaf), with its doc comment, under a section heading per owner.
//
// Its input is aliases.txt beside this file, kept by hand:
//
//   - lines starting with # are comments;
//   - "preamble" starts the comment written between the package clause and
//     the imports (its // lines, up to a blank line);
//   - "== heading" starts a section;
//   - an entry is its doc comment (// lines, written as they are) and one
//     line naming what it re-exports: pkg.Name, or Alias = pkg.Name to
//     give it another name in the root; a group is "(", one such line per
//     name (indented by a tab), and ")";
//   - blank lines separate entries.
//
// The generator reads the owning packages' sources (go/parser) to tell
// whether each name is a type, a constant, a variable or a function: a
// type keeps its type parameters, a function is wrapped with the same
// signature (names of the module's packages unqualified, as the root
// aliases them). A name its package does not declare is an error. To
// re-export a new name, add its entry under its owner's section and run
// go generate in the root.
package genaliases

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Module is the module path of the packages aliases.go imports.
const Module = "github.com/paygrid/payments"

// Input is the path of the hand-kept list, relative to the module root.
const Input = "internal/genaliases/aliases.txt"

// oneLine is the longest function wrapper written on one line.
const oneLine = 104

// Generate returns aliases.go as it should be for the module rooted at
// root (the directory of go.mod).
func Generate(root string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, Input))
	if err != nil {
		return nil, err
	}
	g := &gen{root: root, pkgs: map[string]*pkgDecls{}, imports: map[string]bool{}}
	if err := g.parse(string(src)); err != nil {
		return nil, err
	}
	return g.output()
}

// entry is one declaration of aliases.go: its doc and the names it
// re-exports (one, or a group's).
type entry struct {
	doc   []string
	refs  []ref
	group bool
}

// ref is one name re-exported: Alias = Pkg.Name.
type ref struct{ alias, pkg, name string }

// gen holds the input read so far and what the owning packages declare.
type gen struct {
	root     string
	preamble []string
	body     bytes.Buffer
	pkgs     map[string]*pkgDecls
	imports  map[string]bool
}

// pkgDecls is what one owning package declares at top level.
type pkgDecls struct {
	path  string
	kinds map[string]token.Token // TYPE, CONST, VAR or FUNC
	types map[string]*ast.TypeSpec
	funcs map[string]*ast.FuncDecl
	files map[string]*ast.File // the file of each function
}

// refLine reads "pkg.Name" or "Alias = pkg.Name".
var refLine = regexp.MustCompile(`^(?:(\w+) = )?(\w+)\.(\w+)$`)

// parse reads the input and writes the body of aliases.go.
func (g *gen) parse(src string) error {
	sc := bufio.NewScanner(strings.NewReader(src))
	var cur *entry
	inPreamble, n := false, 0
	flush := func() error {
		if cur == nil {
			return nil
		}
		e := cur
		cur = nil
		if len(e.refs) == 0 {
			return fmt.Errorf("%s:%d: a doc comment names nothing", Input, n)
		}
		return g.write(e)
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "preamble":
			inPreamble = true
		case inPreamble && strings.HasPrefix(line, "//"):
			g.preamble = append(g.preamble, line)
		case strings.TrimSpace(line) == "":
			inPreamble = false
			if cur != nil && cur.group {
				return fmt.Errorf("%s:%d: blank line in a group", Input, n)
			}
			if err := flush(); err != nil {
				return err
			}
		case strings.HasPrefix(line, "== "):
			if err := flush(); err != nil {
				return err
			}
			fmt.Fprintf(&g.body, "// %s\n// %s\n\n", strings.Repeat("-", 72), line[3:])
		case strings.HasPrefix(line, "//"):
			if cur == nil {
				cur = &entry{}
			}
			cur.doc = append(cur.doc, line)
		case line == "(":
			if cur == nil {
				cur = &entry{}
			}
			cur.group = true
		case line == ")":
			if cur == nil || !cur.group {
				return fmt.Errorf("%s:%d: ) outside a group", Input, n)
			}
			cur.group = false
			e := cur
			e.group = true
			cur = nil
			if err := g.write(e); err != nil {
				return err
			}
		default:
			m := refLine.FindStringSubmatch(strings.TrimPrefix(line, "\t"))
			if m == nil {
				return fmt.Errorf("%s:%d: want pkg.Name or Alias = pkg.Name, got %q", Input, n, line)
			}
			if cur == nil {
				cur = &entry{}
			}
			r := ref{alias: m[1], pkg: m[2], name: m[3]}
			if r.alias == "" {
				r.alias = r.name
			}
			cur.refs = append(cur.refs, r)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}

// write appends e's declaration to the body.
func (g *gen) write(e *entry) error {
	for _, l := range e.doc {
		g.body.WriteString(l + "\n")
	}
	if e.group {
		kind := token.ILLEGAL
		var lines []string
		for _, r := range e.refs {
			k, err := g.kind(r)
			if err != nil {
				return err
			}
			if kind != token.ILLEGAL && k != kind || k != token.CONST && k != token.VAR {
				return fmt.Errorf("%s: a group holds constants or variables, of one kind", r.pkg+"."+r.name)
			}
			kind = k
			lines = append(lines, fmt.Sprintf("\t%s = %s.%s\n", r.alias, r.pkg, r.name))
		}
		g.body.WriteString(kind.String() + " (\n" + strings.Join(lines, "") + ")\n\n")
		return nil
	}
	if len(e.refs) != 1 {
		return fmt.Errorf("%s.%s: an entry outside a group names one name", e.refs[0].pkg, e.refs[0].name)
	}
	r := e.refs[0]
	k, err := g.kind(r)
	if err != nil {
		return err
	}
	switch k {
	case token.TYPE:
		ts := g.pkgs[r.pkg].types[r.name]
		params, args := "", ""
		if ts.TypeParams != nil && len(ts.TypeParams.List) > 0 {
			var names []string
			for _, f := range ts.TypeParams.List {
				for _, nm := range f.Names {
					names = append(names, nm.Name)
				}
			}
			params = "[" + g.fields(r.pkg, nil, ts.TypeParams) + "]"
			args = "[" + strings.Join(names, ", ") + "]"
		}
		fmt.Fprintf(&g.body, "type %s%s = %s.%s%s\n\n", r.alias, params, r.pkg, r.name, args)
	case token.CONST, token.VAR:
		fmt.Fprintf(&g.body, "%s %s = %s.%s\n\n", k, r.alias, r.pkg, r.name)
	case token.FUNC:
		g.body.WriteString(g.wrapper(r) + "\n\n")
	}
	return nil
}

// kind loads r's package and returns what it declares r.name as.
func (g *gen) kind(r ref) (token.Token, error) {
	p, err := g.load(r.pkg)
	if err != nil {
		return 0, err
	}
	k, ok := p.kinds[r.name]
	if !ok || !ast.IsExported(r.name) {
		return 0, fmt.Errorf("%s: package %s declares no exported %s", Input, p.path, r.name)
	}
	g.imports[strconv.Quote(p.path)] = true
	return k, nil
}

// load parses the package named name (a directory of the module, or
// internal/name) once.
func (g *gen) load(name string) (*pkgDecls, error) {
	if p := g.pkgs[name]; p != nil {
		return p, nil
	}
	dir := ""
	for _, d := range []string{name, "internal/" + name} {
		if st, err := os.Stat(filepath.Join(g.root, d)); err == nil && st.IsDir() {
			dir = d
			break
		}
	}
	if dir == "" {
		return nil, fmt.Errorf("%s: no package %s in the module", Input, name)
	}
	p := &pkgDecls{path: Module + "/" + dir, kinds: map[string]token.Token{}, types: map[string]*ast.TypeSpec{},
		funcs: map[string]*ast.FuncDecl{}, files: map[string]*ast.File{}}
	names, err := filepath.Glob(filepath.Join(g.root, dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, fn := range names {
		if strings.HasSuffix(fn, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, fn, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if f.Name.Name != name {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.kinds[d.Name.Name], p.funcs[d.Name.Name], p.files[d.Name.Name] = token.FUNC, d, f
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						p.kinds[s.Name.Name], p.types[s.Name.Name] = token.TYPE, s
					case *ast.ValueSpec:
						for _, nm := range s.Names {
							p.kinds[nm.Name] = d.Tok
						}
					}
				}
			}
		}
	}
	g.pkgs[name] = p
	return p, nil
}

// wrapper returns the function of the root that calls r with the same
// signature.
func (g *gen) wrapper(r ref) string {
	fd := g.pkgs[r.pkg].funcs[r.name]
	f := g.pkgs[r.pkg].files[r.name]
	ft := fd.Type
	var params, args []string
	for i, fl := range ft.Params.List {
		typ := g.expr(f, fl.Type)
		names := fl.Names
		if len(names) == 0 {
			names = []*ast.Ident{ast.NewIdent("p" + strconv.Itoa(i))}
		}
		for _, nm := range names {
			params = append(params, nm.Name+" "+typ)
			if _, ok := fl.Type.(*ast.Ellipsis); ok {
				args = append(args, nm.Name+"...")
			} else {
				args = append(args, nm.Name)
			}
		}
	}
	sig := "func " + r.alias
	if ft.TypeParams != nil && len(ft.TypeParams.List) > 0 {
		sig += "[" + g.fields(r.pkg, f, ft.TypeParams) + "]"
	}
	sig += "(" + strings.Join(params, ", ") + ")"
	if ft.Results != nil && len(ft.Results.List) > 0 {
		res := g.fields(r.pkg, f, ft.Results)
		if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) == 0 {
			sig += " " + res
		} else {
			sig += " (" + res + ")"
		}
	}
	call := fmt.Sprintf("%s.%s(%s)", r.pkg, r.name, strings.Join(args, ", "))
	if ft.Results != nil && len(ft.Results.List) > 0 {
		call = "return " + call
	}
	if one := sig + " { " + call + " }"; len(one) <= oneLine {
		return one
	}
	return sig + " {\n\t" + call + "\n}"
}

// fields prints a field list (parameters, results, type parameters) with
// each name's type, as go/types would: a, b T becomes a T, b T.
func (g *gen) fields(pkg string, f *ast.File, fl *ast.FieldList) string {
	var out []string
	for _, fld := range fl.List {
		typ := g.expr(f, fld.Type)
		if len(fld.Names) == 0 {
			out = append(out, typ)
		}
		for _, nm := range fld.Names {
			out = append(out, nm.Name+" "+typ)
		}
	}
	return strings.Join(out, ", ")
}

// expr prints a type of f's package as the root writes it: the module's
// packages unqualified (the root aliases their names), other packages
// qualified and imported.
func (g *gen) expr(f *ast.File, e ast.Expr) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, token.NewFileSet(), e)
	s := b.String()
	if f == nil {
		return s
	}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\.`)
		if !re.MatchString(s) {
			continue
		}
		if path == Module || strings.HasPrefix(path, Module+"/") {
			s = re.ReplaceAllString(s, "")
		} else {
			g.imports[im.Path.Value] = true
		}
	}
	return s
}

// output assembles and formats the file.
func (g *gen) output() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by genaliases from " + Input + "; DO NOT EDIT.\n\npackage payments\n\n")
	for _, l := range g.preamble {
		b.WriteString(l + "\n")
	}
	var std, mod []string
	for p := range g.imports {
		if strings.HasPrefix(p, strconv.Quote(Module)[:len(Module)+1]) {
			mod = append(mod, p)
		} else {
			std = append(std, p)
		}
	}
	sort.Strings(std)
	sort.Strings(mod)
	b.WriteString("\nimport (\n\t" + strings.Join(std, "\n\t") + "\n\n\t" + strings.Join(mod, "\n\t") + "\n)\n\n")
	b.Write(g.body.Bytes())
	return format.Source(b.Bytes())
}
