package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// small are the flags of a run that takes seconds.
var small = []string{"-n", "200", "-base", "40", "-customers", "2", "-callers", "8", "-rate-callers", "2", "-d", "200ms", "-requests", "5", "-events", "1500"}

// runSmall runs the command with small and extra, and returns its table
// and its progress lines.
func runSmall(t *testing.T, extra ...string) (table, log string) {
	t.Helper()
	var out, errs bytes.Buffer
	if err := run(context.Background(), append(append([]string{}, small...), extra...), &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	return out.String(), errs.String()
}

// row returns the cells of the table's row whose metric starts with
// metric.
func row(t *testing.T, table, metric string) []string {
	t.Helper()
	for line := range strings.SplitSeq(table, "\n") {
		if strings.HasPrefix(line, metric) {
			return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(strings.TrimPrefix(line, metric)), -1)
		}
	}
	t.Fatalf("no row %q in\n%s", metric, table)
	return nil
}

// TestRun_Table: every store fills its payments through the engine and
// the table has every measure of the base and the full store.
func TestRun_Table(t *testing.T) {
	stores := [][]string{{"-store", "mem"}, {"-store", "bolt", "-db", filepath.Join(t.TempDir(), "full.db"), "-bolt-stats"}}
	if dsn := os.Getenv("PAYMENTS_TEST_POSTGRES"); dsn != "" {
		schema := fmt.Sprintf("datascale_test_%d", os.Getpid())
		stores = append(stores, []string{"-store", "pg", "-postgres", dsn, "-schema", schema})
		t.Cleanup(func() { _ = storeSpec{kind: "pg", dsn: dsn, schema: schema, fresh: true}.cleanup(context.Background()) })
	}
	for _, args := range stores {
		t.Run(args[1], func(t *testing.T) {
			table, log := runSmall(t, args...)
			if got := row(t, table, "payments in the store"); got[0] != "40" || got[1] != "200" {
				t.Errorf("payments: %q\n%s", got, table)
			}
			for _, m := range []string{"payments/s", "GET /transactions?limit=20 p99, all, first page", "GET /transactions?limit=20 p99, by customer, first page",
				"GET /transactions?limit=20 p99, by status COMPLETED, first page", "GET /transactions?limit=20 p99, by status FAILED (1%), first page"} {
				if got := row(t, table, m); got[0] == "-" || got[1] == "-" {
					t.Errorf("%s: %q", m, got)
				}
			}
			// 200 payments over 2 customers: 5 pages each; no hundredth.
			if got := row(t, table, "GET /transactions?limit=20 p99, all, 100th page"); got[1] != "-" {
				t.Errorf("100th page of 10: %q", got)
			}
			// The pass is measured with 1,500 events in backoff, and reads
			// what is due, not what waits: next to nothing.
			if got := row(t, table, "webhook pass, 1,500 events waiting, none due: time"); got[0] == "-" || got[1] == "-" {
				t.Errorf("pass time: %q", got)
			}
			for _, n := range row(t, table, "webhook pass: store reads")[:2] {
				if reads, err := strconv.Atoi(n); err != nil || reads > 2 {
					t.Errorf("pass reads %q of 1,500 waiting\n%s", n, table)
				}
			}
			if args[1] == "mem" {
				if strings.Contains(table, "bytes on disk") {
					t.Errorf("the memory store has no bytes on disk:\n%s", table)
				}
				return
			}
			if args[1] == "bolt" {
				// -bolt-stats: where each file's bytes go, per bucket.
				for _, want := range []string{`page B/payment`, `\n *quotes +200 `, `\n *transactions_ix_all +2\d\d `, `\n *file +\d+ +\d+ *\n`} {
					if !regexp.MustCompile(want).MatchString(log) {
						t.Errorf("no %q in\n%s", want, log)
					}
				}
			}
			if per := row(t, table, "bytes on disk per payment"); per[1] == "-" || per[1] == "0" {
				t.Errorf("bytes per payment: %q", per)
			}
		})
	}
}

// TestRun_Resumes: a second run on the same bbolt file finds the payments
// of the first (and the ones its payments/s measure made) and fills only up
// to -n; the hundredth page exists once there are 100 pages.
func TestRun_Resumes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "full.db")
	_, log := runSmall(t, "-store", "bolt", "-db", db, "-rounds", "1") // well under the second run's -n
	if !strings.Contains(log, "full store (bbolt "+db+", 200 payments):\n  holds 0 payments\n  filled 200 payments") {
		t.Fatalf("first run:\n%s", log)
	}
	table, log := runSmall(t, "-store", "bolt", "-db", db, "-n", "2100", "-customers", "1", "-callers", "16")
	resumed(t, log, "bbolt", 2100)
	if got := row(t, table, "payments in the store"); got[1] != "2,100" {
		t.Errorf("payments: %q", got)
	}
	if got := row(t, table, "GET /transactions?limit=20 p99, all, 100th page"); got[0] != "-" || got[1] == "-" {
		t.Errorf("100th page of 105: %q", got)
	}
}

// TestRun_ResumesOnPostgreSQL: a second run on the same schema finds the
// payments of the first, which PostgreSQL answers from the transactions'
// rows once the engine has declared them (counted before, the index held
// none and a run filled the whole -n again).
func TestRun_ResumesOnPostgreSQL(t *testing.T) {
	dsn := os.Getenv("PAYMENTS_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PAYMENTS_TEST_POSTGRES is not set")
	}
	schema := fmt.Sprintf("datascale_resume_%d", os.Getpid())
	t.Cleanup(func() { _ = storeSpec{kind: "pg", dsn: dsn, schema: schema, fresh: true}.cleanup(context.Background()) })
	runSmall(t, "-store", "pg", "-postgres", dsn, "-schema", schema, "-rounds", "1") // well under the second run's -n
	_, log := runSmall(t, "-store", "pg", "-postgres", dsn, "-schema", schema, "-n", "1500")
	resumed(t, log, "PostgreSQL schema", 1500)
}

// resumed checks that the second run's log (its full store described as
// store) found at least the first run's 200 payments and filled up to n.
func resumed(t *testing.T, log, store string, n int) {
	t.Helper()
	m := regexp.MustCompile(`full store \(` + store + ` .*, ` + strconv.Itoa(n) + ` payments\):\n  holds (\d+) payments\n  filled (\d+) payments`).FindStringSubmatch(log)
	var held, filled int
	if m != nil {
		fmt.Sscan(m[1], &held)
		fmt.Sscan(m[2], &filled)
	}
	if m == nil || held < 200 || held+filled != n {
		t.Fatalf("second run:\n%s", log)
	}
}

// TestParseFlags_Callers: the fill's callers are 64, and 16 on PostgreSQL,
// whose group commits run out of predicate locks with more; -callers
// overrides both.
func TestParseFlags_Callers(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-store", "bolt"}, 64},
		{[]string{"-store", "mem"}, 64},
		{[]string{"-store", "pg", "-postgres", "host=/nowhere"}, 16},
		{[]string{"-store", "pg", "-postgres", "host=/nowhere", "-callers", "40"}, 40},
	} {
		o, err := parseFlags(c.args, &bytes.Buffer{})
		if err != nil || o.callers != c.want {
			t.Errorf("%q: %d callers, %v; want %d", c.args, o.callers, err, c.want)
		}
	}
}

// TestRun_RateRounds: payments/s is measured in rounds alternating between
// the stores, and its ratio is the median of the rounds' ratios.
func TestRun_RateRounds(t *testing.T) {
	table, _ := runSmall(t, "-store", "mem", "-rounds", "3", "-d", "100ms")
	rate := row(t, table, "payments/s (quote+execute, 2 callers, median of 3 rounds of 100ms)")
	each := strings.Fields(row(t, table, "payments/s, each round's ratio")[0])
	if len(each) != 3 {
		t.Fatalf("rounds' ratios %q\n%s", each, table)
	}
	var ratios []float64
	for _, r := range each {
		v, err := strconv.ParseFloat(strings.TrimSuffix(r, "x"), 64)
		if err != nil || v <= 0 {
			t.Fatalf("round ratio %q: %v", r, err)
		}
		ratios = append(ratios, v)
	}
	if want := fmt.Sprintf("%.2fx", median(ratios)); rate[2] != want {
		t.Errorf("ratio %s, want the rounds' median %s (%q)\n%s", rate[2], want, each, table)
	}
	if _, err := parseFlags([]string{"-rounds", "0"}, new(bytes.Buffer)); err == nil {
		t.Error("-rounds 0 accepted")
	}
}
