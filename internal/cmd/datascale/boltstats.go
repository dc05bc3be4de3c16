package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	bolt "go.etcd.io/bbolt"
)

// boltStats prints where the bytes of the closed bbolt file at path go,
// per bucket (bbolt's Bucket.Stats, and the bytes of its keys and values
// counted by a cursor), largest first, each also divided by payments; and
// the file's free pages.
func boltStats(w io.Writer, path string, payments int) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	type bucket struct {
		name            string
		keys, kb, vb    int64
		pages, overflow int
		alloc, inuse    int64
		branchPages     int
		branchAlloc     int64
		inline, depth   int
	}
	var bs []bucket
	var fileSize int64
	pageSize := int64(db.Info().PageSize)
	err = db.View(func(tx *bolt.Tx) error {
		fileSize = tx.Size()
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			s := b.Stats()
			x := bucket{name: string(name), pages: s.LeafPageN, overflow: s.LeafOverflowN, alloc: int64(s.LeafAlloc + s.BranchAlloc),
				inuse: int64(s.LeafInuse + s.BranchInuse), branchPages: s.BranchPageN + s.BranchOverflowN, branchAlloc: int64(s.BranchAlloc),
				inline: s.InlineBucketN, depth: s.Depth}
			err := b.ForEach(func(k, v []byte) error {
				x.keys++
				x.kb += int64(len(k))
				x.vb += int64(len(v))
				return nil
			})
			bs = append(bs, x)
			return err
		})
	})
	if err != nil {
		return err
	}
	slices.SortFunc(bs, func(a, b bucket) int { return cmp.Compare(b.alloc, a.alloc) })
	per := func(n int64) string {
		if payments == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f", float64(n)/float64(payments))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bucket\tkeys\tkey B\tvalue B\tleaf+ovfl pages\tbranch pages\tpage B\tfill\tpage B/payment\tkey B/payment\tvalue B/payment\t\n")
	var total int64
	for _, b := range bs {
		total += b.alloc
		fill := 0.0
		if b.alloc > 0 {
			fill = 100 * float64(b.inuse) / float64(b.alloc)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d+%d\t%d\t%d\t%.0f%%\t%s\t%s\t%s\t\n", b.name, b.keys, b.kb, b.vb, b.pages, b.overflow, b.branchPages, b.alloc, fill,
			per(b.alloc), per(b.kb), per(b.vb))
	}
	st := db.Stats()
	fmt.Fprintf(tw, "all buckets\t\t\t\t\t\t%d\t\t%s\t\t\t\n", total, per(total))
	fmt.Fprintf(tw, "free pages\t\t\t\t%d\t\t%d\t\t%s\t\t\t\n", st.FreePageN+st.PendingPageN, int64(st.FreePageN+st.PendingPageN)*pageSize, per(int64(st.FreePageN+st.PendingPageN)*pageSize))
	fmt.Fprintf(tw, "file\t\t\t\t\t\t%d\t\t%s\t\t\t\n", fileSize, per(fileSize))
	return tw.Flush()
}
