package live

import (
	"net/http"
	"testing"
	"time"
)

// TestStrongSince: a Last-Modified less than a second before the answer's
// Date (or now) is not sent back as If-Modified-Since, so a change within
// that second is not hidden behind a 304.
func TestStrongSince(t *testing.T) {
	now := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		lm, date string
		want     bool
	}{
		{now.Add(-5 * time.Second).Format(http.TimeFormat), now.Format(http.TimeFormat), true},
		{now.Format(http.TimeFormat), now.Format(http.TimeFormat), false},                // the same second: weak
		{now.Format(http.TimeFormat), "", false},                                         // no Date: now
		{now.Add(-2 * time.Second).Format(http.TimeFormat), "", true},                    // no Date, old enough
		{"yesterday", now.Format(http.TimeFormat), false},                                // unparsable
		{"", now.Format(http.TimeFormat), false},                                         // none
		{now.Add(time.Hour).Format(http.TimeFormat), now.Format(http.TimeFormat), false}, // in the future
	} {
		h := http.Header{}
		if tc.lm != "" {
			h.Set("Last-Modified", tc.lm)
		}
		if tc.date != "" {
			h.Set("Date", tc.date)
		}
		if got := strongSince(h, now); (got != "") != tc.want || got != "" && got != tc.lm {
			t.Errorf("Last-Modified %q, Date %q: got %q, want kept=%v", tc.lm, tc.date, got, tc.want)
		}
	}
}
