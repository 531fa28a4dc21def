// What the GNU target entry points (rt_openmp_target.cpp) need from the OpenMP model
// (rt_openmp.cpp): a league of teams that gcc's host fallback runs one after the other on the
// thread that encountered `teams` inside a target region.
#pragma once

#include "rt_internal.hpp"

namespace frt {

// Begins a league of `count` teams on this thread: the encountering task forks one implicit
// task per team (each its own contention group) and team 0 starts. Storage below
// `private_below` on this stack (the target region's frames) is private to each team.
void omp_host_league_begin(u32 count, u64 private_below, const void* pc);
// Ends the running team; starts the next one (true) or joins the league (false).
bool omp_host_league_next(const void* pc);
// The host league team the calling thread works for (a team's own thread, or a thread of a
// region or a task inside that team): its number and the league's size.
bool omp_host_team(u32* number, u32* count);

} // namespace frt
