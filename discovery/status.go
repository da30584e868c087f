package discovery

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// WriteSources lists the sources as a table (under /modules): type, module,
// when the list in use was fetched, its entries and targets, and the last
// refresh's error. Built-in lists appear while they run, marked.
func (m *Manager) WriteSources(w io.Writer) {
	st := m.Statuses()
	if len(st) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nSOURCE\tTYPE\tMODULE\tLAST SUCCESS\tENTRIES\tTARGETS\tFAILURES\tLAST ERROR")
	for _, s := range st {
		last := "never"
		if !s.LastSuccess.IsZero() {
			last = s.LastSuccess.UTC().Format(time.RFC3339)
		}
		entries := fmt.Sprint(s.Entries)
		if s.Capped {
			entries += " (capped)"
		}
		name := s.Name
		if s.Builtin {
			name += " (built-in)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", name, s.Type, s.Module, last, entries, s.Targets, s.Failures, s.LastError)
	}
	tw.Flush()
}
