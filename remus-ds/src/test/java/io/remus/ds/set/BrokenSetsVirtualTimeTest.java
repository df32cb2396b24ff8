package io.remus.ds.set;

import io.remus.check.Verdict;
import io.remus.core.error.RemusException;
import io.remus.core.sim.SimOptions;
import io.remus.ds.testing.VirtualTimeHistories;
import io.remus.ds.testing.VirtualTimeHistories.Outcome;
import io.remus.ds.testing.VirtualTimeHistories.Scenario;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The virtual-time histories catch a broken set: the deliberately broken twins of the lock-free list
 * ({@link UnmarkedUnlinkListSet}) and of the skip list ({@link BrokenSkipListSet}, its insert linking with a
 * plain WRITE) run the sets' history of {@link VirtualTimeHistories#setMix} under the deterministic
 * scheduler, seed after seed, until the checker rejects one or the flaw fails a worker with a typed error (a
 * torn or dangling pointer the library refuses); the seed that did is printed, and reruns
 * alone with {@code -Dremus.vt.seed=N}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokenSetsVirtualTimeTest {
    private static final int SEEDS = 30;

    static Stream<Named<SetMaker>> broken() {
        return Stream.of(SetMaker.unmarkedUnlink(), SetMaker.brokenSkipList(BrokenSkipListSet.Flaw.WRITE_LINK))
                .map(m -> Named.of(m.name(), m));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void shouldFindANonLinearizableHistoryOfABrokenSetForSomeSeed(SetMaker maker) throws Exception {
        SimOptions options = SimOptions.defaults().withTearReads(true).withTearWords(true).withYieldWhileTearing(true);
        Scenario scenario = VirtualTimeHistories.setMix(maker.name(), options, false,
                (t, r, ptr, create) -> create ? maker.attach(t, r, maker.create(t, r, 1)) : maker.attach(t, r, ptr));
        for (long seed : VirtualTimeHistories.seeds(SEEDS)) {
            Outcome o;
            try {
                o = VirtualTimeHistories.run(scenario, seed);
            } catch (AssertionError e) {
                if (e.getCause() instanceof RemusException typed) {
                    // The flaw surfaced as a worker's typed error (e.g. a pointer torn out of every segment by the
                    // broken unlink) instead of a wrong answer: caught as well.
                    System.out.println(VirtualTimeHistories.rerun(scenario, seed) + ": a worker failed, as it may: " + typed);
                    return;
                }
                throw e;
            }
            assertNotEquals(Verdict.UNKNOWN, o.result().verdict(), VirtualTimeHistories.rerun(scenario, seed) + ": " + o.result());
            if (o.result().verdict() == Verdict.NOT_LINEARIZABLE) {
                System.out.println(VirtualTimeHistories.rerun(scenario, seed) + ": not linearizable, as it must be");
                return;
            }
        }
        throw new AssertionError(maker.name() + ": no history of " + SEEDS + " seeds under the virtual-time scheduler was found not linearizable");
    }
}
