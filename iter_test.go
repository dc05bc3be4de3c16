package payments_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEngine_ListAll_EveryList keeps the iterators whole: every list method
// M of every engine group (a method returning a Page and an error) has MAll
// beside it, taking M's parameters and returning iter.Seq2[T, error] over
// the page's item type T.
func TestEngine_ListAll_EveryList(t *testing.T) {
	eng := reflect.TypeFor[payments.Engine]()
	lists := 0
	for f := range eng.Fields() {
		if !f.IsExported() {
			continue
		}
		for m := range f.Type.Methods() {
			mt := m.Type
			if mt.NumOut() != 2 || !strings.HasPrefix(mt.Out(0).Name(), "Page[") {
				continue
			}
			lists++
			where := f.Name + "." + m.Name
			all, ok := f.Type.MethodByName(m.Name + "All")
			if !assert.True(t, ok, "%s has no %sAll", where, m.Name) {
				continue
			}
			at := all.Type
			require.Equal(t, mt.NumIn(), at.NumIn(), "%sAll takes %s's parameters", where, where)
			for i := range mt.NumIn() {
				assert.Equal(t, mt.In(i), at.In(i), "%sAll parameter %d", where, i)
			}
			item, _ := mt.Out(0).FieldByName("Data")
			want := fmt.Sprintf("func(func(%s, error) bool)", item.Type.Elem())
			if assert.Equal(t, 1, at.NumOut(), where+"All") {
				assert.True(t, strings.HasPrefix(at.Out(0).Name(), "Seq2["), "%sAll returns %s, not an iter.Seq2", where, at.Out(0))
				assert.Equal(t, want, funcString(at.Out(0)), "%sAll yields the page's items", where)
			}
		}
	}
	assert.GreaterOrEqual(t, lists, 24, "the list methods were not found")
}

// funcString is the signature of a func type, without its name.
func funcString(t reflect.Type) string {
	var in []string
	for i := range t.NumIn() {
		in = append(in, t.In(i).String())
	}
	return "func(" + strings.Join(in, ", ") + ")"
}

func TestCustomers_ListAll(t *testing.T) {
	e := enginetest.NewEnv(t)
	var want []string
	for i := range 5 {
		c, err := e.Eng.Customers.Create(ctx, enginetest.FullIndividual(fmt.Sprintf("Walker %d", i)))
		require.NoError(t, err)
		want = append(want, c.ID)
	}
	p := payments.ListParams{Limit: 2}
	first, err := e.Eng.Customers.List(ctx, payments.CustomerFilter{}, p)
	require.NoError(t, err)
	require.True(t, first.HasMore, "the walk must cross pages")

	t.Run("walks every page", func(t *testing.T) {
		var got []string
		for c, err := range e.Eng.Customers.ListAll(ctx, payments.CustomerFilter{}, p) {
			require.NoError(t, err)
			got = append(got, c.ID)
		}
		assert.Equal(t, want, got)
	})
	t.Run("stops early without error", func(t *testing.T) {
		var got []string
		for c, err := range e.Eng.Customers.ListAll(ctx, payments.CustomerFilter{}, p) {
			require.NoError(t, err)
			if got = append(got, c.ID); len(got) == 3 {
				break
			}
		}
		assert.Equal(t, want[:3], got)
	})
	t.Run("surfaces a list error", func(t *testing.T) {
		n := 0
		for c, err := range e.Eng.Customers.ListAll(ctx, payments.CustomerFilter{}, payments.ListParams{Cursor: "not-a-cursor"}) {
			n++
			assert.Empty(t, c.ID)
			enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")
		}
		assert.Equal(t, 1, n, "one pair: the error")
	})
}
