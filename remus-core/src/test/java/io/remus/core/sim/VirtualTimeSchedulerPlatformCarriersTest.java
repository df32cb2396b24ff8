package io.remus.core.sim;

/** The cases of {@link VirtualTimeSchedulerTest} on {@link Carriers#PLATFORM} carriers: one platform thread each. */
class VirtualTimeSchedulerPlatformCarriersTest extends VirtualTimeSchedulerTest {
    @Override
    Carriers carriers() {
        return Carriers.PLATFORM;
    }
}
