package payments_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/paygrid/payments"

// below states the direction of ARCHITECTURE.md: each package of the
// leaves, the kernel and the areas, by its path in the module, and the
// packages of the module it may import (the closure of the arrows). The
// root (the facade) may import all of them; the adapters (every other
// package: storage/..., sandbox, httpapi, dashboard, webhooks, examples,
// rails/railtest, internal/... such as the tests' helpers
// internal/enginetest) import the root and whatever they need.
//
// Test files are not held to it: an area's tests live in its external test
// package (quotes_test beside quotes), which is not part of the area and
// goes through the public API, importing the root and internal/enginetest.
var below = func() map[string][]string {
	leaves := []string{"money", "validate", "walletauth", "internal/jsonx", "internal/eventrec", "internal/errs", "internal/observe", "internal/outbound", "internal/paging", "internal/ixkey", "internal/rowspec"}
	kernel := append([]string{"internal/engine"}, leaves...)
	m := map[string][]string{
		"money": nil, "validate": nil, "walletauth": nil, "internal/jsonx": nil,
		"internal/eventrec": {"internal/jsonx"},
		"internal/errs":     {"validate"},
		"internal/observe":  nil,
		"internal/outbound": {"internal/eventrec", "internal/jsonx"},
		"internal/paging":   {"internal/errs", "internal/jsonx", "validate"},
		"internal/ixkey":    nil,
		"internal/rowspec":  nil,
		"internal/engine":   leaves,
		"rails":             kernel,
		"platform":          kernel,
	}
	m["internal/history"] = kernel // the event history's reads, a service over the kernel
	m["internal/ledger"] = kernel  // the ledger's reads, likewise
	m["internal/backlog"] = kernel // the backlog's counts, likewise
	m["internal/duesnap"] = kernel // the sandbox clock's snapshot of due work, likewise
	m["customers"] = append([]string{"platform"}, kernel...)
	m["accounts"] = append([]string{"customers", "platform", "rails"}, kernel...)
	m["quotes/invitations"] = append([]string{"accounts", "customers", "platform", "rails"}, kernel...)
	m["quotes/pricing"] = []string{"money"}
	m["quotes/lookups"] = m["quotes/invitations"]
	m["quotes/records"] = m["quotes/invitations"]
	m["quotes/railside"] = m["quotes/invitations"]
	m["quotes/rates"] = append([]string{"quotes/pricing", "money"}, m["quotes/invitations"]...)
	m["quotes"] = append([]string{"quotes/invitations", "quotes/lookups", "quotes/pricing", "quotes/railside", "quotes/rates", "quotes/records"}, m["quotes/invitations"]...)
	m["stablecoins"] = append([]string{"accounts", "customers", "platform", "rails"}, kernel...)
	m["agents"] = append([]string{"quotes"}, m["quotes"]...)
	m["cards"] = append([]string{"quotes"}, m["quotes"]...)
	m["wallets"] = append([]string{"cards"}, m["cards"]...)
	return m
}()

// TestImports_DependencyDirection keeps the direction of ARCHITECTURE.md:
// the kernel (internal/engine) imports only the leaves, an area imports
// the kernel, the leaves and the areas below it, and nothing but the
// adapters imports the root. It reads the import lines of every non-test
// Go file of the module.
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
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		allowed, layered := below[dir]
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != module && !strings.HasPrefix(p, module+"/") {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
			_, target := below[rel]
			switch {
			case layered && !slices.Contains(allowed, rel):
				t.Errorf("%s: %s imports %s, which is not below it", path, dir, p)
			case dir == "." && !target:
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

// TestImports_OnlyTestsImportEnginetest keeps internal/enginetest a
// package of tests: no non-test file of the module outside it imports it,
// so neither it nor what it imports (testing, testify, every store) links
// into a program built on the module.
func TestImports_OnlyTestsImportEnginetest(t *testing.T) {
	const helpers = "internal/enginetest"
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.ToSlash(filepath.Dir(path)) == helpers {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/"+helpers {
				t.Errorf("%s imports %s; only _test.go files may", path, p)
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

// TestImports_TelemetryOnlyInAdapters keeps the metrics and tracing
// libraries out of the engine: only the adapters of package telemetry/...
// and the sandbox server that wires them import Prometheus or
// OpenTelemetry; the kernel, the areas, the root and httpapi reach them
// through payments.Observer.
func TestImports_TelemetryOnlyInAdapters(t *testing.T) {
	libraries := []string{"github.com/prometheus/", "go.opentelemetry.io/"}
	importers := map[string]bool{}
	eachSource(t, parser.ImportsOnly, func(path string, f *ast.File) {
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, lib := range libraries {
				if strings.HasPrefix(p, lib) {
					importers[filepath.ToSlash(filepath.Dir(path))] = true
				}
			}
		}
	})
	var got []string
	for dir := range importers {
		got = append(got, dir)
	}
	slices.Sort(got)
	if want := telemetryImporters; !slices.Equal(got, want) {
		t.Errorf("packages importing %v: %v, want %v", libraries, got, want)
	}
}

// telemetryImporters are the packages that may import the metrics and
// tracing libraries, sorted.
var telemetryImporters = []string{"examples/server", "telemetry/oteltrace", "telemetry/prommetrics"}
