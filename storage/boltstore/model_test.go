package boltstore

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/paygrid/payments"
)

var modelSeeds = flag.Int("model.seeds", 60, "random sequences TestModel runs")

// model is what the store must hold: table -> key -> value.
type model map[string]map[string]string

func (m model) clone() model {
	out := model{}
	for t, rows := range m {
		out[t] = map[string]string{}
		for k, v := range rows {
			out[t][k] = v
		}
	}
	return out
}

// scan is what a Scan with opts must visit, in order.
func (m model) scan(table string, opts payments.ScanOptions) []string {
	var keys []string
	for k := range m[table] {
		if !strings.HasPrefix(k, opts.Prefix) {
			continue
		}
		if opts.After != "" && (!opts.Reverse && k <= opts.After || opts.Reverse && k >= opts.After) {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if opts.Reverse {
		slices.Reverse(keys)
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + m[table][k]
	}
	return out
}

var modelTables = []string{"a", "b"}

func randKey(r *rand.Rand) string { return fmt.Sprintf("k%d%d", r.IntN(4), r.IntN(6)) }

func randScan(r *rand.Rand) payments.ScanOptions {
	var o payments.ScanOptions
	if r.IntN(3) == 0 {
		o.Prefix = fmt.Sprintf("k%d", r.IntN(4))
	}
	if r.IntN(3) == 0 {
		o.After = randKey(r)
	}
	o.Reverse = r.IntN(2) == 0
	return o
}

// scanAll runs a Scan and returns what it visited as key=value.
func scanAll(tx payments.Tx, table string, opts payments.ScanOptions) ([]string, error) {
	var out []string
	err := tx.Scan(table, opts, func(k string, v []byte) (bool, error) {
		out = append(out, k+"="+string(v))
		return true, nil
	})
	return out, err
}

// TestModel runs seeded random sequences of Updates (puts, inserts,
// deletes, reads and scans inside them, some failing and undone, some
// concurrent), Views, crashes, clean reopens and checkpoint sizes against
// a map, checking every read. A failure names its seed; rerun one with
// -run 'TestModel/seed=N$'.
func TestModel(t *testing.T) {
	n := *modelSeeds
	if testing.Short() {
		n = 10
	}
	for seed := range n {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { runModel(t, uint64(seed)) })
	}
}

func runModel(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	path := filepath.Join(t.TempDir(), "m.db")
	sizes := []int{1, 100, 1000, 0}
	open := func() *Store {
		s, err := Open(path, &Options{CheckpointSize: sizes[r.IntN(len(sizes))]})
		if err != nil {
			t.Fatalf("seed %d: open: %v", seed, err)
		}
		return s
	}
	s := open()
	want := model{}
	errFail := errors.New("the function fails")
	for step := range 150 {
		switch p := r.IntN(100); {
		case p < 55: // one Update of a few writes and reads, checked as it runs
			draft := want.clone()
			fail := r.IntN(6) == 0
			var problem string
			err := s.Update(ctx, func(tx payments.Tx) error {
				for range 1 + r.IntN(5) {
					table, key := modelTables[r.IntN(2)], randKey(r)
					if draft[table] == nil {
						draft[table] = map[string]string{}
					}
					value := fmt.Sprintf("v%d.%d", step, r.IntN(1000))
					_, exists := draft[table][key]
					switch r.IntN(5) {
					case 0:
						if err := tx.Put(table, key, []byte(value)); err != nil {
							return err
						}
						draft[table][key] = value
					case 1:
						err := tx.Insert(table, key, []byte(value))
						if exists != errors.Is(err, payments.ErrConflict) || (!exists && err != nil) {
							problem = fmt.Sprintf("Insert %s/%s (exists=%v): %v", table, key, exists, err)
						}
						if err == nil {
							draft[table][key] = value
						}
					case 2:
						err := tx.Delete(table, key)
						if exists == errors.Is(err, payments.ErrNotFound) || (exists && err != nil) {
							problem = fmt.Sprintf("Delete %s/%s (exists=%v): %v", table, key, exists, err)
						}
						delete(draft[table], key)
					case 3:
						v, err := tx.Get(table, key)
						if exists && string(v) != draft[table][key] || exists == errors.Is(err, payments.ErrNotFound) {
							problem = fmt.Sprintf("Get %s/%s in Update: %q, %v; want %q (exists=%v)", table, key, v, err, draft[table][key], exists)
						}
					case 4:
						opts := randScan(r)
						got, err := scanAll(tx, table, opts)
						if w := draft.scan(table, opts); err != nil || !slices.Equal(got, w) {
							problem = fmt.Sprintf("Scan %s %+v in Update: %v, %v; want %v", table, opts, got, err, w)
						}
					}
					if problem != "" {
						return errFail
					}
				}
				if fail {
					return errFail
				}
				return nil
			})
			if problem != "" {
				t.Fatalf("seed %d step %d: %s", seed, step, problem)
			}
			switch {
			case fail && !errors.Is(err, errFail):
				t.Fatalf("seed %d step %d: failing Update returned %v", seed, step, err)
			case !fail && err != nil:
				t.Fatalf("seed %d step %d: Update: %v", seed, step, err)
			case !fail:
				want = draft
			}
		case p < 65: // concurrent Updates on keys of their own, so any order holds
			var wg sync.WaitGroup
			writers := 2 + r.IntN(6)
			values := make([]string, writers)
			for w := range writers {
				values[w] = fmt.Sprintf("c%d.%d", step, w)
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := s.Update(ctx, func(tx payments.Tx) error {
						if w%3 == 2 {
							_ = tx.Put("b", fmt.Sprintf("w%d", w), []byte("undone"))
							return errFail
						}
						return tx.Put("a", fmt.Sprintf("w%d", w), []byte(values[w]))
					})
					if (w%3 == 2) != (err != nil) {
						t.Errorf("seed %d step %d: writer %d: %v", seed, step, w, err)
					}
				}()
			}
			wg.Wait()
			if want["a"] == nil {
				want["a"] = map[string]string{}
			}
			for w := range writers {
				if w%3 != 2 {
					want["a"][fmt.Sprintf("w%d", w)] = values[w]
				}
			}
		case p < 85: // a View's scans and reads
			table, opts := modelTables[r.IntN(2)], randScan(r)
			var got []string
			err := s.View(ctx, func(tx payments.Tx) error {
				var err error
				got, err = scanAll(tx, table, opts)
				return err
			})
			if w := want.scan(table, opts); err != nil || !slices.Equal(got, w) {
				t.Fatalf("seed %d step %d: View Scan %s %+v: %v, %v; want %v", seed, step, table, opts, got, err, w)
			}
		case p < 92: // a crash, then Open replays the log
			crash(t, s)
			s = open()
		default: // a clean stop and start
			if err := s.Close(); err != nil {
				t.Fatalf("seed %d step %d: close: %v", seed, step, err)
			}
			s = open()
		}
	}
	for _, table := range modelTables {
		var got []string
		if err := s.View(ctx, func(tx payments.Tx) error {
			var err error
			got, err = scanAll(tx, table, payments.ScanOptions{})
			return err
		}); err != nil || !slices.Equal(got, want.scan(table, payments.ScanOptions{})) {
			t.Fatalf("seed %d: final %s: %v, %v; want %v", seed, table, got, err, want.scan(table, payments.ScanOptions{}))
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
