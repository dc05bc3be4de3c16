package wirecheck

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "main")
	pkg := filepath.Join(repo, "internal", "httpapi")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvReference, "")
	t.Chdir(pkg)

	if _, err := locate(); !errors.Is(err, errNotFound) {
		t.Fatalf("without a shared folder: %v, want errNotFound", err)
	}

	ref := filepath.Join(root, "shared", "reference", "openapi.yaml")
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ref, []byte("openapi: 3.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := locate()
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := sameFile(got, ref); !same {
		t.Errorf("located %s, want %s", got, ref)
	}

	other := filepath.Join(root, "elsewhere.yaml")
	if err := os.WriteFile(other, []byte("openapi: 3.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvReference, other)
	if got, err := locate(); err != nil || got != other {
		t.Errorf("with %s set: %q, %v", EnvReference, got, err)
	}

	t.Setenv(EnvReference, filepath.Join(root, "missing.yaml"))
	if _, err := locate(); err == nil || errors.Is(err, errNotFound) {
		t.Errorf("with %s naming a missing file: %v, want a hard error", EnvReference, err)
	}
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

func TestIsErrorSchemaName(t *testing.T) {
	for name, want := range map[string]bool{"Error400": true, "Error500": true, "GridError": false, "Error40": false, "ErrorABC": false, "FieldError": false} {
		if got := isErrorSchemaName(name); got != want {
			t.Errorf("isErrorSchemaName(%q) = %v", name, got)
		}
	}
}

// nopCloser is a terminal stand-in.
type nopCloser struct{ *strings.Builder }

func (nopCloser) Close() error { return nil }

// TestReportAbsence: an absent reference is one line on the terminal
// outside CI (stderr when there is none) and leaves the exit code alone; in
// CI it fails the run; a reference that loaded says nothing.
func TestReportAbsence(t *testing.T) {
	env := func(ci string) func(string) string {
		return func(k string) string {
			if k == "CI" {
				return ci
			}
			return ""
		}
	}
	var term strings.Builder
	tty := func() (io.WriteCloser, error) { return nopCloser{&term}, nil }
	noTTY := func() (io.WriteCloser, error) { return nil, os.ErrNotExist }

	var errs strings.Builder
	if got := reportAbsence(errNotFound, "httpapi", 0, &errs, env(""), tty); got != 0 {
		t.Errorf("outside CI: exit %d, want 0", got)
	}
	if want := "httpapi: " + AbsentNote + "\n"; term.String() != want || errs.Len() != 0 {
		t.Errorf("outside CI: terminal %q, stderr %q; want the note on the terminal", term.String(), errs.String())
	}
	if !strings.Contains(AbsentNote, EnvReference) {
		t.Errorf("the note does not name %s: %q", EnvReference, AbsentNote)
	}

	term.Reset()
	if got := reportAbsence(errNotFound, "httpapi", 0, &errs, env(""), noTTY); got != 0 || errs.String() != "httpapi: "+AbsentNote+"\n" {
		t.Errorf("without a terminal: exit %d, stderr %q", got, errs.String())
	}

	errs.Reset()
	if got := reportAbsence(errNotFound, "httpapi", 0, &errs, env("true"), tty); got != 1 || !strings.Contains(errs.String(), AbsentNote) || term.Len() != 0 {
		t.Errorf("in CI: exit %d, stderr %q, terminal %q; want 1 and the note on stderr", got, errs.String(), term.String())
	}

	errs.Reset()
	for _, err := range []error{nil, errors.New("parsing: bad")} {
		if got := reportAbsence(err, "httpapi", 3, &errs, env("true"), tty); got != 3 || errs.Len() != 0 || term.Len() != 0 {
			t.Errorf("load error %v: exit %d, output %q %q; want the code unchanged and nothing written", err, got, errs.String(), term.String())
		}
	}
}
