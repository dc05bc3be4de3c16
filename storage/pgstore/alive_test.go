package pgstore

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// BenchmarkAlive is the cost of checking an idle connection before it is
// reused (alive: one non-blocking peek at its socket).
func BenchmarkAlive(b *testing.B) {
	dsn := os.Getenv("PAYMENTS_TEST_POSTGRES")
	if dsn == "" {
		b.Skip("PAYMENTS_TEST_POSTGRES is not set")
	}
	c, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	for b.Loop() {
		if !alive(c) {
			b.Fatal("a live connection found dead")
		}
	}
}
