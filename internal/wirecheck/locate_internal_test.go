package wirecheck

import (
	"errors"
	"os"
	"path/filepath"
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
