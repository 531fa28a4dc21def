// A target region run on the host: each team of the league writes its own element, the teams
// of `target teams distribute parallel for` split a loop, and host `teams` (OpenMP 5.0) each
// add to their own element; the host reads after the regions end.
#include <omp.h>
#include <stdio.h>

#define N 64
static int per_team[8], v[N], host_teams[4];

int main(void) {
#pragma omp target map(tofrom : per_team)
#pragma omp teams num_teams(2)
    per_team[omp_get_team_num()] = omp_get_team_num() + 1;
#pragma omp target teams distribute parallel for map(tofrom : v)
    for (int i = 0; i < N; ++i)
        v[i] = 2 * i;
#pragma omp teams num_teams(4)
    host_teams[omp_get_team_num() % 4] += 1;
    int sum = 0;
    for (int i = 0; i < N; ++i)
        sum += v[i];
    printf("%d %d %d %d\n", per_team[0], per_team[1], sum, host_teams[0]);
    return 0;
}
