package requestlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLog_StreamBounded: a stream's client that does not read holds at
// most its buffer; further requests are counted dropped, never queued
// without bound and never blocking the request that is logged; the log
// offers each request only to the streams whose filter matches, and stops
// once a stream is gone.
func TestLog_StreamBounded(t *testing.T) {
	g := New(10)
	slow := &stream{ch: make(chan sequenced, 2)}
	only404 := &stream{filter: Filter{status: 404}, ch: make(chan sequenced, 8)}
	stop := g.follow(slow)
	defer g.follow(only404)()
	for i := range 5 {
		g.Add(Request{Path: "/a", Status: 200 + 204*(i%2)}) // 200, 404, 200, 404, 200
	}
	require.Len(t, slow.ch, 2)
	assert.EqualValues(t, 3, slow.dropped.Load())
	first := <-slow.ch
	assert.EqualValues(t, 1, first.seq)
	assert.Len(t, only404.ch, 2)
	assert.Zero(t, only404.dropped.Load())

	stop()
	<-slow.ch
	g.Add(Request{Status: 404})
	assert.Empty(t, slow.ch, "unsubscribed")
	assert.Len(t, only404.ch, 3)
	assert.Len(t, g.Latest(10, Filter{}), 6)
}
