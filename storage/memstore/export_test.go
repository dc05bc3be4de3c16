package memstore

// Queued returns how many transactions wait behind the running one.
func Queued(s *Store) int {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	return len(s.queue)
}
