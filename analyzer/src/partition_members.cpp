// The member lists of the partitions, derived from the races' partition column on demand
// (analysis_result.hpp: the result keeps no list per partition).
#include "firstrace/analysis_result.hpp"

namespace firstrace {

std::vector<std::vector<std::uint32_t>> partition_members(const AnalysisResult& result) {
    std::vector<std::vector<std::uint32_t>> members(result.partitions.size());
    for (const Partition& p : result.partitions)
        members.at(p.id).reserve(p.race_count);
    for (const Race& r : result.races)
        members.at(r.partition).push_back(r.id);
    return members;
}

} // namespace firstrace
