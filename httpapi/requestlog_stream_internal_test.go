package httpapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestStream_Bounded: a stream's client that does not read holds at
// most its buffer; further requests are counted dropped, never queued
// without bound and never blocking the request that is logged; the ring
// offers each request only to the streams whose filter matches, and stops
// once a stream is gone.
func TestRequestStream_Bounded(t *testing.T) {
	g := newRequestRing(10)
	slow := &requestStream{ch: make(chan sequenced, 2)}
	only404 := &requestStream{filter: requestFilter{status: 404}, ch: make(chan sequenced, 8)}
	stop := g.follow(slow)
	defer g.follow(only404)()
	for i := range 5 {
		g.add(LoggedRequest{Path: "/a", Status: 200 + 204*(i%2)}) // 200, 404, 200, 404, 200
	}
	require.Len(t, slow.ch, 2)
	assert.EqualValues(t, 3, slow.dropped.Load())
	first := <-slow.ch
	assert.EqualValues(t, 1, first.seq)
	assert.Len(t, only404.ch, 2)
	assert.Zero(t, only404.dropped.Load())

	stop()
	<-slow.ch
	g.add(LoggedRequest{Status: 404})
	assert.Empty(t, slow.ch, "unsubscribed")
	assert.Len(t, only404.ch, 3)
	assert.Len(t, g.latest(10, requestFilter{}), 6)
}
