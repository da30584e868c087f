package protocols

import (
	"math"
	"testing"
	"time"
)

func TestSpanSeconds(t *testing.T) {
	tests := []struct {
		s    float64
		want Span
	}{
		{0, Span{0, true}},
		{86523, Span{86523 * time.Second, true}},
		{1.5, Span{1500 * time.Millisecond, true}},
		{-1, Span{}},
		{math.NaN(), Span{}},
		{math.Inf(1), Span{}},
		{1e300, Span{}},
		{51 * 365 * 86400, Span{}},
	}
	for _, tc := range tests {
		if got := SpanSeconds(tc.s); got != tc.want {
			t.Errorf("SpanSeconds(%g) = %+v, want %+v", tc.s, got, tc.want)
		}
	}
}
