package wirecheck

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// EnvReference names the environment variable that, when set, holds the path
// of the reference file. It overrides the search beside the repository; a
// path that does not exist then fails the test instead of skipping checks.
const EnvReference = "PAYMENTS_REFERENCE"

// DefaultBasePath is the prefix the server mounts the API under (the
// interface version). [Checker.Check] strips it from request paths when
// present, unless [Checker.WithBasePath] chose another one.
const DefaultBasePath = "/2025-10-13"

// referenceRel is where the reference sits relative to the module root: the
// shared folder is a sibling of the repository (/work/shared beside
// /work/main, and likewise in CI).
var referenceRel = filepath.Join("..", "shared", "reference", "openapi.yaml")

// Checker validates HTTP exchanges against the adapted reference. It is safe
// for concurrent use by parallel tests. A nil *Checker is valid: it checks
// nothing.
type Checker struct {
	doc      *openapi3.T
	router   routers.Router
	basePath string
	path     string
	elapsed  time.Duration
}

var (
	loadOnce sync.Once
	loaded   *Checker
	loadErr  error
	// absentLogged makes the "not found" note appear once per process.
	absentLogged atomic.Bool
)

// Load returns the process-wide Checker, parsing the reference on first use
// (parsing costs a few hundred milliseconds, so it happens once per test
// binary; concurrent callers wait for the same load).
//
// When the reference cannot be found, Load logs "reference not found; wire
// checks skipped" once per process and returns nil, which every method of
// Checker accepts as "check nothing": HTTP-layer tests keep running, only the
// wire check is skipped. When the reference is found but cannot be loaded,
// or when [EnvReference] names a missing file, Load fails tb with Fatalf.
func Load(tb testing.TB) *Checker {
	tb.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	switch {
	case errors.Is(loadErr, errNotFound):
		if absentLogged.CompareAndSwap(false, true) {
			tb.Log("wirecheck: reference not found; wire checks skipped")
		}
		return nil
	case loadErr != nil:
		tb.Fatalf("wirecheck: %v", loadErr)
		return nil
	}
	return loaded
}

// Loaded returns the Checker a test of this process loaded, or nil when
// none did or the reference is absent (for a TestMain that reports
// coverage after the tests ran).
func Loaded() *Checker {
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		return nil
	}
	return loaded
}

// AbsentNote is the line [ReportAbsence] writes when the reference is not
// found: what was skipped and how to point the tests at a copy.
const AbsentNote = "reference not found: the wire checks against the public API reference were skipped " +
	"(set " + EnvReference + " to the path of openapi.yaml, or put it at ../shared/reference/openapi.yaml beside the repository)"

// ReportAbsence is for the TestMain of a package whose tests use the wire
// check, after its tests ran: when the reference was not found it reports
// so and returns the exit code to use instead of code. Outside CI (the
// environment variable CI unset) it writes "pkg: " and [AbsentNote] to the
// terminal, since a passing package's output reaches the screen of a plain
// go test ./... only with -v, else to errs, and returns code. In CI an
// absent reference is a failure: it writes the note to errs and returns 1.
// A reference that was found, or a failure of its own, returns code
// unchanged (Load has already failed the tests for a reference that does
// not load).
func ReportAbsence(pkg string, code int, errs io.Writer) int {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return reportAbsence(loadErr, pkg, code, errs, os.Getenv, openTTY)
}

// openTTY opens the controlling terminal for writing.
func openTTY() (io.WriteCloser, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) }

// reportAbsence is ReportAbsence on the outcome of the load, the
// environment and the terminal given.
func reportAbsence(loadErr error, pkg string, code int, errs io.Writer, getenv func(string) string, tty func() (io.WriteCloser, error)) int {
	if !errors.Is(loadErr, errNotFound) {
		return code
	}
	line := pkg + ": " + AbsentNote + "\n"
	if getenv("CI") != "" {
		fmt.Fprint(errs, line+pkg+": CI is set, so an absent reference fails the run\n")
		return 1
	}
	if w, err := tty(); err == nil {
		_, werr := io.WriteString(w, line)
		w.Close()
		if werr == nil {
			return code
		}
	}
	fmt.Fprint(errs, line)
	return code
}

// Available reports whether c checks anything, that is whether the
// reference was loaded. Tests that only make sense with the check (such as
// this package's own) can skip on !Available().
func (c *Checker) Available() bool { return c != nil }

// Path is the file the reference was loaded from ("" for a nil Checker).
func (c *Checker) Path() string {
	if c == nil {
		return ""
	}
	return c.path
}

// LoadDuration is how long reading, adapting, parsing and validating the
// reference took (0 for a nil Checker).
func (c *Checker) LoadDuration() time.Duration {
	if c == nil {
		return 0
	}
	return c.elapsed
}

// Document is the adapted, parsed reference, for tests that need to look at
// a schema directly. Treat it as read-only: it is shared by every test of the
// process. It is nil for a nil Checker.
func (c *Checker) Document() *openapi3.T {
	if c == nil {
		return nil
	}
	return c.doc
}

// WithBasePath returns a Checker that strips prefix (for example
// "/v1/2025-10-13", or "" for none) instead of [DefaultBasePath] from request
// paths before matching them against the reference. The prefix is stripped
// only when present, so requests without it still match. It shares the
// parsed reference with c; on a nil Checker it returns nil.
func (c *Checker) WithBasePath(prefix string) *Checker {
	if c == nil {
		return nil
	}
	cp := *c
	cp.basePath = strings.TrimRight(prefix, "/")
	return &cp
}

var errNotFound = errors.New("reference not found")

// locate finds the reference: $PAYMENTS_REFERENCE, else
// <module root>/../shared/reference/openapi.yaml for the nearest ancestor of
// the working directory holding a go.mod whose sibling shared folder has it.
func locate() (string, error) {
	if p := os.Getenv(EnvReference); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%q: %w", EnvReference, p, err)
		}
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", errors.Join(errNotFound, err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			candidate := filepath.Join(dir, referenceRel)
			if _, err := os.Stat(candidate); err == nil {
				return candidate, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errNotFound
		}
		dir = parent
	}
}

func load() (*Checker, error) {
	start := time.Now()
	path, err := locate()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, router, err := prepare(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Checker{
		doc:      doc,
		router:   router,
		basePath: DefaultBasePath,
		path:     path,
		elapsed:  time.Since(start),
	}, nil
}

// prepare turns the reference text into the adapted document and its router.
func prepare(data []byte) (*openapi3.T, routers.Router, error) {
	text := renamer.Replace(string(data))

	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(text))
	if err != nil {
		return nil, nil, fmt.Errorf("parsing: %w", err)
	}
	if err := adapt(doc); err != nil {
		return nil, nil, fmt.Errorf("adapting: %w", err)
	}
	// legacy.NewRouter validates the document first. The reference's own
	// examples do not all match their schemas (e.g. readOnly properties in
	// webhook request examples), and examples play no part in checking
	// traffic, so their validation is off.
	router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	if err != nil {
		return nil, nil, err
	}
	return doc, router, nil
}

// Renames of the maker's name to this API's neutral word (payments.Brand),
// applied to the YAML text before parsing.
// The stablecoin codes are not in this snapshot of the reference but are
// listed for when they appear.
var renames = [][2]string{
	{"Grid-Wallet-Signature", "Service-Wallet-Signature"},
	{"X-Grid-Signature", "X-Service-Signature"},
	{"STABLECOIN_GRID_OPERATIONS_NOT_ENABLED", "STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED"},
	{"STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE", "STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE"},
	{"GRID_SWITCH_ERROR", "SERVICE_SWITCH_ERROR"},
	{"CLOSED_BY_GRID", "CLOSED_BY_SERVICE"},
	{"GRID_INTERNAL_ACCOUNT", "SERVICE_INTERNAL_ACCOUNT"},
	{"gridApiMultiplier", "serviceApiMultiplier"},
	{"gridApiFixedFee", "serviceApiFixedFee"},
	{"gridApiVariableFeeRate", "serviceApiVariableFeeRate"},
	{"gridApiVariableFeeAmount", "serviceApiVariableFeeAmount"},
	{"gridOperationsStatus", "serviceOperationsStatus"},
}

var renamer = func() *strings.Replacer {
	var pairs []string
	for _, r := range renames {
		pairs = append(pairs, r[0], r[1])
	}
	return strings.NewReplacer(pairs...)
}()

// adapt applies the document-level adaptations described in the package
// documentation.
func adapt(doc *openapi3.T) error {
	// Servers: the reference's server URL carries /grid/2025-10-13; the
	// checker strips the base path itself and matches bare paths.
	doc.Servers = nil
	for _, item := range doc.Paths.Map() {
		item.Servers = nil
		for _, op := range item.Operations() {
			op.Servers = nil
		}
	}

	if err := adaptErrorSchemas(doc); err != nil {
		return err
	}

	// Spec-vs-reference item 6: POST /sandbox/receive is served too.
	// Operation ids must stay unique, so the alias gets copies of the
	// operations with suffixed ids.
	if item := doc.Paths.Value("/sandbox/uma/receive"); item != nil && doc.Paths.Value("/sandbox/receive") == nil {
		alias := *item
		for method, op := range item.Operations() {
			cp := *op
			if cp.OperationID != "" {
				cp.OperationID += "SpecAlias"
			}
			alias.SetOperation(method, &cp)
		}
		doc.Paths.Set("/sandbox/receive", &alias)
	}

	// Spec-vs-reference item 2: the platform config carries the boolean
	// skipVerificationPaperwork, settable by PATCH /config.
	for _, name := range []string{"PlatformConfig", "PlatformConfigUpdateRequest"} {
		s := schema(doc, name)
		if s == nil {
			return fmt.Errorf("schema %s not found", name)
		}
		if s.Properties == nil {
			s.Properties = openapi3.Schemas{}
		}
		if s.Properties["skipVerificationPaperwork"] == nil {
			s.Properties["skipVerificationPaperwork"] = openapi3.NewBoolSchema().NewRef()
		}
	}
	return nil
}

func schema(doc *openapi3.T, name string) *openapi3.Schema {
	if doc.Components == nil {
		return nil
	}
	if ref := doc.Components.Schemas[name]; ref != nil {
		return ref.Value
	}
	return nil
}

// specErrorCodes are the error codes this API sends for a status that this
// snapshot of the reference's ErrorNNN code enum lacks (the deviation
// spec-error-codes). Codes already in the enum are not repeated here; merging is
// idempotent anyway.
var specErrorCodes = map[string][]string{
	"Error400": {
		"INSUFFICIENT_FUNDS", "QUOTE_EXPIRED", "QUOTE_RATE_UNAVAILABLE",
		"STABLECOIN_AMOUNT_NOT_REPRESENTABLE", "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED",
		"STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED", "STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED",
		"STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED", "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED",
		"STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED", "STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED",
		"STABLECOIN_NOT_PROVISIONED", "STABLECOIN_OPERATION_NOT_SUPPORTED", "STABLECOIN_PROVIDER_ERROR",
		"STABLECOIN_PROVIDER_SOURCE_NOT_LINKED", "STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE",
		"STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED", "STABLECOIN_VERIFICATION_FAILED",
		// The reference's own 400 descriptions of
		// POST and PATCH /cards name it.
		"FUNDING_SOURCE_INELIGIBLE",
	},
	"Error404": {
		"ACCOUNT_NOT_FOUND", "AUTH_METHOD_NOT_FOUND", "CUSTOMER_NOT_FOUND", "DOCUMENT_HOLDER_NOT_FOUND",
		"NOT_FOUND", "PAYMENT_URL_NOT_FOUND", "PLATFORM_NOT_FOUND", "REQUEST_NOT_FOUND", "SESSION_NOT_FOUND",
		"STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND", "STABLECOIN_NOT_FOUND", "STABLECOIN_OPERATION_NOT_FOUND",
		"VERIFICATION_NOT_FOUND",
	},
	"Error409": {
		"BANK_ACCOUNT_VALIDATION_PENDING", "CARD_LIMIT_REACHED", "DOCUMENT_ALREADY_EXISTS",
		"DUPLICATE_EXTERNAL_ACCOUNT", "DUPLICATE_PAY_REQUEST", "SMS_OTP_CREDENTIAL_SET_CHANGED",
		"SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS", "STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE",
		"STABLECOIN_SYMBOL_ALREADY_EXISTS", "STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS",
		"WALLET_NOT_PROVISIONED",
	},
}

// adaptErrorSchemas makes every components.schemas.ErrorNNN describe our
// error body {status, code, message, reason, details} (the deviation
// error-reason): reason is a required string (we always send it, equal to
// message), and the code enum gains this API's extra codes (specErrorCodes).
func adaptErrorSchemas(doc *openapi3.T) error {
	if doc.Components == nil {
		return errors.New("no components")
	}
	n := 0
	for name, ref := range doc.Components.Schemas {
		if !isErrorSchemaName(name) || ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		n++
		if s.Properties == nil {
			s.Properties = openapi3.Schemas{}
		}
		if s.Properties["reason"] == nil {
			s.Properties["reason"] = openapi3.NewStringSchema().NewRef()
			s.Properties["reason"].Value.Description = "Error message (same as message); this API's name for it."
		}
		// Declared, reason passes even where additional properties are
		// forbidden (none of the reference's error schemas forbids them).
		if !slices.Contains(s.Required, "reason") {
			s.Required = append(s.Required, "reason")
		}
		if extra := specErrorCodes[name]; len(extra) > 0 {
			code := s.Properties["code"]
			if code == nil || code.Value == nil {
				return fmt.Errorf("%s has no code property", name)
			}
			if len(code.Value.Enum) > 0 {
				for _, c := range extra {
					if !slices.Contains(code.Value.Enum, any(c)) {
						code.Value.Enum = append(code.Value.Enum, c)
					}
				}
			}
		}
	}
	if n == 0 {
		return errors.New("no ErrorNNN schemas found")
	}
	return nil
}

// isErrorSchemaName matches "Error" followed by a three-digit status.
func isErrorSchemaName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Error")
	if !ok || len(rest) != 3 {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
