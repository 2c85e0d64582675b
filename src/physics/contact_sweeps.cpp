#include "physics/contact_sweeps.h"

#include "physics/batch_lanes.h"
#include "physics/constants.h"

#include <type_traits>

namespace impulse {

namespace {

/// A solve applied in every lane of a batch (else a FloatW lane mask).
struct AllLanes {};

FloatW axisVelocity(const Vec3W& vA, const Vec3W& wA, const Vec3W& vB, const Vec3W& wB, const Vec3W& direction,
                    const AxisW& axis) {
    return dot(vB - vA, direction) + dot(wB, axis.rBxD) - dot(wA, axis.rAxD);
}

// Runs visit(batch) over this member's share of every colour, colour after
// colour (backwards if `reverse`), with a barrier after each colour. The
// overflow group's batches may share bodies: member 0 takes them all. A
// batch for which visit returns true gets finish(batch) too, once the share
// is visited (the same result: no two batches of a colour share a dynamic
// body, and in the overflow group the order is fixed): a rare call inside
// the visit loop made the compiler spill its registers around every visit
// (spheres1000 +6 %).
template <typename Visit, typename Finish>
void forEachColour(ContactSolverData& data, ThreadTeam& team, int member, bool reverse, Visit visit, Finish finish) {
    const size_t colours = data.colourStarts.empty() ? 0 : data.colourStarts.size() - 1;
    for (size_t k = 0; k < colours; ++k) {
        const size_t colour = reverse ? colours - 1 - k : k;
        const size_t first = data.colourStarts[colour], count = data.colourStarts[colour + 1] - first;
        ThreadTeam::Share share = team.share(count, member);
        if (colour == data.overflowFrom) share = member == 0 ? ThreadTeam::Share{0, count} : ThreadTeam::Share{0, 0};
        // The member's share of deferredBatches is that of the batches.
        uint32_t* deferred = data.deferredBatches.data() + first + share.begin;
        size_t deferredCount = 0;
        for (size_t i = share.begin; i < share.end; ++i) {
            const size_t b = first + (reverse ? share.end - 1 - (i - share.begin) : i);
            if (visit(data.batches[b])) deferred[deferredCount++] = uint32_t(b);
        }
        for (size_t i = 0; i < deferredCount; ++i) finish(data.batches[deferred[i]]);
        team.sync();
    }
}

template <typename Visit>
void forEachColour(ContactSolverData& data, ThreadTeam& team, int member, bool reverse, Visit visit) {
    forEachColour(
        data, team, member, reverse,
        [&visit](ContactBatch& batch) IMPULSE_INLINE_LAMBDA {
            visit(batch);
            return false;
        },
        [](ContactBatch&) {});
}

BatchLandings& landingsOf(ContactSolverData& data, const ContactBatch& batch) {
    return data.batchLandings[size_t(&batch - data.batches.data())];
}

}  // namespace

void beginSubStep(ContactSolverData& data, bool warmStart, bool first, ThreadTeam& team, int member) {
    const FloatW zero = splat(0.0f);
    forEachColour(data, team, member, false, [&data, warmStart, first, zero](ContactBatch& batch) IMPULSE_INLINE_LAMBDA {
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        // The impulses a sub-step ends with are all it applied (warm start and
        // sweeps): they count towards the step's totals.
        if (!first) {
            BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
            for (int i = 0; i < batch.pointCount; ++i) {
                const BatchPoint& p = points[i];
                BatchPointOnce& once = pointsOnce[i];
                store(once.stepNormalImpulse, load(once.stepNormalImpulse) + load(p.normalImpulse));
                for (int k = 0; k < 2; ++k) {
                    Lanes& total = once.stepTangentImpulse[k];
                    store(total, load(total) + load(p.tangentImpulse[k]));
                }
            }
        }
        // A landing's impulses stopped its arrival: warm-started, they would
        // throw the bodies apart again, and friction, bounded by what the
        // normal solve then took back, would lose what stopped the slip. So
        // the landed lanes start with the normal impulse they carried before
        // (only a manifold unloaded last step lands, but it may land again in
        // a later sub-step; started fully cold then, a box of pile1000 never
        // came to rest) and no friction.
        if (batch.landed) {
            BatchLandings& landings = landingsOf(data, batch);
            const FloatW landed = load(landings.landedLanes);
            BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
            for (int i = 0; i < batch.pointCount; ++i) {
                store(points[i].normalImpulse,
                      select(landed, load(pointsOnce[i].loadBeforeLanding), load(points[i].normalImpulse)));
                store(points[i].tangentImpulse[0], select(landed, zero, load(points[i].tangentImpulse[0])));
                store(points[i].tangentImpulse[1], select(landed, zero, load(points[i].tangentImpulse[1])));
            }
            store(landings.landedLanes, zero);
            batch.landed = false;
        }
        if (!warmStart) {
            for (int i = 0; i < batch.pointCount; ++i) {
                store(points[i].normalImpulse, zero);
                store(points[i].tangentImpulse[0], zero);
                store(points[i].tangentImpulse[1], zero);
            }
            return;
        }
        BodyBlock blockA(data.bodies, batch.a, kVelocityBlock);
        BodyBlock blockB(data.bodies, batch.b, kVelocityBlock);
        Vec3W vA = blockA.first(), wA = blockA.second(), vB = blockB.first(), wB = blockB.second();
        const FloatW inverseMassA = blockA.columns[6], inverseMassB = blockB.columns[6];
        const TurnSource turnSource{turnsOf(data, batch), blockA.columns[7], blockB.columns[7]};
        const Vec3W normal = load(batch.normal), tangent0 = load(batch.tangent[0]), tangent1 = load(batch.tangent[1]);
        for (int i = 0; i < batch.pointCount; ++i) {
            BatchPoint& p = points[i];
            // Normal and friction impulses of the last sub-step as one impulse.
            const FloatW normalImpulse = load(p.normalImpulse);
            const FloatW tangentImpulse0 = load(p.tangentImpulse[0]), tangentImpulse1 = load(p.tangentImpulse[1]);
            const Vec3W impulse = normalImpulse * normal + (tangentImpulse0 * tangent0 + tangentImpulse1 * tangent1);
            const auto [turnA, turnB] =
                turnSource.turnsBy(p, i, impulse, normalImpulse, tangentImpulse0, tangentImpulse1);
            vA = vA - inverseMassA * impulse;
            wA = wA - turnA;
            vB = vB + inverseMassB * impulse;
            wB = wB + turnB;
        }
        blockA.set(vA, wA);
        blockA.store();
        blockB.set(vB, wB);
        blockB.store();
    });
}

namespace {

// solveContacts for one kind of sweep, chosen at compile time so that the
// support sweep's masks cost the others nothing.
template <Sweep kSweep>
void sweepBatches(ContactSolverData& data, float h, bool reverse, ThreadTeam& team, int member) {
    constexpr bool support = kSweep == Sweep::Support;
    const FloatW inverseH = splat(1.0f / h);
    const FloatW landingSpeed = splat(data.landingSpeed);
    const FloatW zero = splat(0.0f);
    // One batch's sweep over every lane (AllLanes), returning the lanes with
    // a point that arrived faster than the landing speed; or, given such a
    // lane mask, the landing rounds: those lanes solved again, normals then
    // friction, kLandingRounds times, until the load is shared as it must be
    // (solved once, corner after corner, a block landing at 3 m/s on a
    // 20 degree ramp was left turning at 3 rad/s for the rest of the
    // sub-step, which tilted it by 2 mm; rocking back onto its face in the
    // next steps, it slid off). The other lanes are left as they are, so that
    // a lane's result does not depend on its batch's width.
    const auto solveBatch = [&data, reverse, inverseH, landingSpeed, zero](ContactBatch& batch,
                                                                          auto laneMask) IMPULSE_INLINE_LAMBDA {
        constexpr bool landingRounds = std::is_same_v<decltype(laneMask), FloatW>;
        FloatW landing = zero;
        if (support && !batch.supportsHeavy) return landing;
        BodyBlock blockA(data.bodies, batch.a, kVelocityBlock);
        BodyBlock blockB(data.bodies, batch.b, kVelocityBlock);
        Vec3W vA = blockA.first(), wA = blockA.second(), vB = blockB.first(), wB = blockB.second();
        FloatW inverseMassA = blockA.columns[6], inverseMassB = blockB.columns[6];
        const TurnSource turnSource{turnsOf(data, batch), blockA.columns[7], blockB.columns[7]};
        const Vec3W normal = load(batch.normal);
        const Vec3W tangent[2] = {load(batch.tangent[0]), load(batch.tangent[1])};
        BatchPoint* points = &data.batchPoints[batch.firstPoint];
        const int pointCount = batch.pointCount;
        const FloatW friction = load(batch.friction), staticFriction = load(batch.staticFriction);
        // Support: the light body of each such lane held still (its share of
        // k_n dropped, nothing applied to it); the other lanes apply nothing.
        FloatW holdA = zero, holdB = zero;
        if constexpr (support) {
            holdA = load(batch.supportA);
            holdB = load(batch.supportB);
        }
        const FloatW supportLane = holdA | holdB;
        const auto supportAxis = [&](AxisW axis) {
            const FloatW k = select(holdA, zero, inverseMassA + dot(axis.rAxD, axis.turnA)) +
                             select(holdB, zero, inverseMassB + dot(axis.rBxD, axis.turnB));
            // A lane's padding points (its manifold has fewer) keep mass 0.
            const FloatW real = select(notEqual(axis.mass, zero), supportLane, zero);
            axis.mass = select(real, splat(1.0f) / max(k, splat(kMinDivisor)), zero);
            axis.turnA = select(holdA, Vec3W{zero, zero, zero}, axis.turnA);
            axis.turnB = select(holdB, Vec3W{zero, zero, zero}, axis.turnB);
            return axis;
        };
        // Friction after the normal solve: its bound is the normal impulse of
        // this sweep, an arrival's included. Solved before it, a landing's
        // friction had a bound of 0 in the sweep of the arrival, and lost what
        // it applied in the next sub-step, which took the arrival's impulse back
        // (a block dropped 3 mm onto a ramp steeper than atan(mu) slid off).
        const auto solveFriction = [&]() IMPULSE_INLINE_LAMBDA {
            for (int k = 0; k < pointCount; ++k) {
                const int i = reverse ? pointCount - 1 - k : k;
                BatchPoint& p = points[i];
                // No lane with a normal load or friction to undo (speculative points):
                // every lane would apply exactly zero.
                const FloatW old0 = load(p.tangentImpulse[0]), old1 = load(p.tangentImpulse[1]);
                const FloatW normalImpulse = load(p.normalImpulse);
                if (!anyLane(notEqual(normalImpulse, zero) | notEqual(old0, zero) | notEqual(old1, zero))) continue;
                const Vec3W rA = load(p.rA), rB = load(p.rB);
                const auto tangentAxis = [&](int t) {
                    return turnSource.axis(cross(rA, tangent[t]), cross(rB, tangent[t]), load(p.tangentMass[t]), i,
                                           1 + t);
                };
                const AxisW axis0 = tangentAxis(0), axis1 = tangentAxis(1);
                // The impulse that would stop sliding, per tangent direction...
                const FloatW slip0 = axisVelocity(vA, wA, vB, wB, tangent[0], axis0);
                const FloatW slip1 = axisVelocity(vA, wA, vB, wB, tangent[1], axis1);
                FloatW total0 = old0 - axis0.mass * slip0, total1 = old1 - axis1.mass * slip1;
                // ...kept if the accumulated total fits in the static cone mu_s j_n
                // (stick), else scaled to the cone's edge against the slip: mu j_n
                // for a point that slides, decided at every solve so that a point
                // that breaks away slides at once; mu_s j_n for one not sliding yet,
                // whose neighbours' solves may still take their share of the load.
                // A point with no load gets bound 0: nothing applied, as it should.
                const FloatW lengthSquared = total0 * total0 + total1 * total1;
                const FloatW staticBound = staticFriction * normalImpulse;
                const FloatW outside = greater(lengthSquared, staticBound * staticBound);
                const FloatW sliding = greater(slip0 * slip0 + slip1 * slip1, splat(kStickSpeed * kStickSpeed));
                const FloatW bound = select(sliding, friction * normalImpulse, staticBound);
                // max() keeps lanes inside the cone (possibly 0/0) from dividing by zero.
                const FloatW scale = bound / sqrt(max(lengthSquared, splat(kMinDivisor)));
                total0 = select(outside, total0 * scale, total0);
                total1 = select(outside, total1 * scale, total1);
                if constexpr (landingRounds) {
                    total0 = select(laneMask, total0, old0);
                    total1 = select(laneMask, total1, old1);
                }
                const FloatW applied0 = total0 - old0, applied1 = total1 - old1;
                const Vec3W impulse = applied0 * tangent[0] + applied1 * tangent[1];
                vA = vA - inverseMassA * impulse;
                wA = wA - (applied0 * axis0.turnA + applied1 * axis1.turnA);
                vB = vB + inverseMassB * impulse;
                wB = wB + (applied0 * axis0.turnB + applied1 * axis1.turnB);
                store(p.tangentImpulse[0], total0);
                store(p.tangentImpulse[1], total1);
            }
        };
        // j = -(v_rel.n - target) / k_n, the target being -s/h for a gap (close
        // it, no more), else 0; the accumulated total stays >= 0 (contacts only
        // push). Then friction. Compiled for both kinds of batch: one that
        // tracks no arrival does not hold the arriving velocities in registers
        // that the loop needs.
        const auto solvePoints = [&](auto tracksArrivalType) IMPULSE_INLINE_LAMBDA {
            constexpr bool tracksArrival = decltype(tracksArrivalType)::value;
            // A point's arrival is measured with the velocities this batch's normal
            // solve begins with: solved one after another, a face's later points
            // saw the approach its earlier ones had left (carts meeting face to
            // face at 1 m/s arrived at -0.86 to -1.03 m/s, some below the
            // threshold), and the impact, given uneven targets, turned the bodies.
            const Vec3W arrivingVA = vA, arrivingWA = wA, arrivingVB = vB, arrivingWB = wB;
            // Only the lanes that track an arrival may land: which others share
            // their batch depends on its width.
            const FloatW landingLanes = tracksArrival ? load(batch.landingLanes) : zero;
            const auto solveNormal = [&](BatchPoint& p, const AxisW& axis, FloatW separation) {
                const FloatW target = select(greater(separation, zero), -separation * inverseH, zero);
                const FloatW oldImpulse = support ? zero : load(p.normalImpulse);
                const FloatW normalVelocity = axisVelocity(vA, wA, vB, wB, normal, axis);
                FloatW lambda = -axis.mass * (normalVelocity - target);
                if constexpr (support) {
                    // At most what stops the heavy body's own motion towards the
                    // light one: held up, never lifted (the light body may be
                    // moving up, and following it would add energy).
                    const FloatW heavyApproach = select(holdA, -(dot(vB, normal) + dot(wB, axis.rBxD)),
                                                        dot(vA, normal) + dot(wA, axis.rAxD));
                    lambda = min(lambda, axis.mass * max(heavyApproach, zero));
                }
                FloatW total = max(oldImpulse + lambda, zero);
                if constexpr (landingRounds) total = select(laneMask, total, oldImpulse);
                if constexpr (tracksArrival && !support) {
                    const FloatW approach = axisVelocity(arrivingVA, arrivingWA, arrivingVB, arrivingWB, normal, axis);
                    store(p.sweepStartImpulse, oldImpulse);
                    const FloatW pushed = greater(total, zero);
                    store(p.arrivalVelocity, min(load(p.arrivalVelocity), select(pushed, approach, zero)));
                    landing = landing | select(select(landingLanes, pushed, zero), greater(-landingSpeed, approach), zero);
                }
                const FloatW applied = total - oldImpulse;
                vA = vA - (inverseMassA * applied) * normal;
                wA = wA - applied * axis.turnA;
                vB = vB + (inverseMassB * applied) * normal;
                wB = wB + applied * axis.turnB;
                if (!support) store(p.normalImpulse, total);
            };
            const auto normalAxis = [&](const BatchPoint& p, int i) {
                return turnSource.axis(load(p.rAxN), load(p.rBxN), load(p.normalMass), i, 0);
            };
            if constexpr (kSweep == Sweep::Relax || landingRounds) {
                for (int k = 0; k < pointCount; ++k) {
                    const int i = reverse ? pointCount - 1 - k : k;
                    BatchPoint& p = points[i];
                    solveNormal(p, normalAxis(p, i), load(p.separation));
                }
            } else {
                BodyBlock pushA(data.bodies, batch.a, kPushBlock);
                BodyBlock pushB(data.bodies, batch.b, kPushBlock);
                Vec3W pvA = pushA.first(), pwA = pushA.second(), pvB = pushB.first(), pwB = pushB.second();
                if constexpr (support) {
                    inverseMassA = select(holdA, zero, inverseMassA);
                    inverseMassB = select(holdB, zero, inverseMassB);
                }
                for (int k = 0; k < pointCount; ++k) {
                    const int i = reverse ? pointCount - 1 - k : k;
                    BatchPoint& p = points[i];
                    const AxisW axis = support ? supportAxis(normalAxis(p, i)) : normalAxis(p, i);
                    const FloatW separation = load(p.separation);
                    solveNormal(p, axis, separation);
                    // Split impulse: push overlap beyond the slop apart at a fraction of
                    // it per sub-step, capped, on pseudo-velocities only. Points neither
                    // overlapping nor pushed yet this sub-step are left alone.
                    const FloatW overlap = -(separation + splat(kPushoutSlop));
                    const FloatW oldPush = support ? zero : load(p.pushImpulse);
                    const FloatW active = greater(overlap, zero) | notEqual(oldPush, zero);
                    if (!anyLane(active)) continue;
                    const FloatW pushTarget =
                        min(splat(kPushoutRate) * max(overlap, zero) * inverseH, splat(kMaxPushoutSpeed));
                    const FloatW pushVelocity = axisVelocity(pvA, pwA, pvB, pwB, normal, axis);
                    const FloatW pushTotal = max(oldPush - axis.mass * (pushVelocity - pushTarget), zero);
                    const FloatW pushApplied = select(active, pushTotal - oldPush, zero);
                    if (!support) store(p.pushImpulse, select(active, pushTotal, oldPush));
                    pvA = pvA - (inverseMassA * pushApplied) * normal;
                    pwA = pwA - pushApplied * axis.turnA;
                    pvB = pvB + (inverseMassB * pushApplied) * normal;
                    pwB = pwB + pushApplied * axis.turnB;
                }
                pushA.set(pvA, pwA);
                pushA.store();
                pushB.set(pvB, pwB);
                pushB.store();
            }
            if constexpr (!support) solveFriction();
        };
        if constexpr (landingRounds) {
            for (int round = 0; round < kLandingRounds; ++round) solvePoints(std::false_type{});
            // The other lanes exactly as they were: their zero impulses would
            // still turn a velocity of -0 into +0.
            vA = select(laneMask, vA, blockA.first());
            wA = select(laneMask, wA, blockA.second());
            vB = select(laneMask, vB, blockB.first());
            wB = select(laneMask, wB, blockB.second());
        } else if (batch.tracksArrival) {
            solvePoints(std::true_type{});
        } else {
            solvePoints(std::false_type{});
        }
        blockA.set(vA, wA);
        blockA.store();
        blockB.set(vB, wB);
        blockB.store();
        return landing;
    };
    // A batch that landed, after the member's share of its colour
    // (forEachColour's finish): the rounds, and what its landed lanes carried
    // before (0 for a body from free flight; what it took on since, for a
    // manifold landing again in the pass), the next sub-step's warm start.
    const auto solveLanding = [&data, &solveBatch, zero](ContactBatch& batch) {
        BatchLandings& landings = landingsOf(data, batch);
        const FloatW passLandings = load(landings.passLandings);
        const FloatW landing =
            select(greater(passLandings, splat(kMaxLandingsPerPass - 0.5f)), zero, load(landings.sweepLandedLanes));
        if (!anyLane(landing)) return;
        const FloatW first = select(load(landings.landedLanes), zero, landing);
        const BatchPoint* points = &data.batchPoints[batch.firstPoint];
        BatchPointOnce* pointsOnce = &data.batchPointsOnce[batch.firstPoint];
        for (int i = 0; i < batch.pointCount; ++i) {
            store(pointsOnce[i].loadBeforeLanding,
                  select(first, load(points[i].sweepStartImpulse), load(pointsOnce[i].loadBeforeLanding)));
        }
        solveBatch(batch, landing);
        store(landings.passLandings, passLandings + select(landing, splat(1.0f), zero));
        store(landings.landedLanes, load(landings.landedLanes) | landing);
        batch.landed = true;
    };
    forEachColour(
        data, team, member, reverse,
        [&data, &solveBatch](ContactBatch& batch) IMPULSE_INLINE_LAMBDA {
            const FloatW landing = solveBatch(batch, AllLanes{});
            if (support || !anyLane(landing)) return false;
            store(landingsOf(data, batch).sweepLandedLanes, landing);
            return true;
        },
        solveLanding);
}

}  // namespace

void solveContacts(ContactSolverData& data, float h, Sweep sweep, bool reverse, ThreadTeam& team, int member) {
    switch (sweep) {
        case Sweep::Solve: sweepBatches<Sweep::Solve>(data, h, reverse, team, member); break;
        case Sweep::Relax: sweepBatches<Sweep::Relax>(data, h, reverse, team, member); break;
        case Sweep::Support: sweepBatches<Sweep::Support>(data, h, reverse, team, member); break;
    }
}

}  // namespace impulse
