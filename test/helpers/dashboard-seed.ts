import type { Caller, TestApp } from './app.ts';
import { seed } from './seed.ts';

/** Levels of a membership, as the permission_ arguments of POST organization:members name them. */
type Levels = { permissionOrganization?: string; permissionContent?: string; permissionMembers?: string };

/**
 * Organizations with everything a dashboard shows of them, built through the seed builder (the
 * services), so a page of 2 and a page of 8 differ only in length.
 */
export function dashboardSeed(t: TestApp) {
  return {
    /**
     * An organization of `owner` with a department tree (Head office, and Branch below it with a
     * leader), three members the owner created (in Head office, in Branch, in none), a class with
     * two of them and an assignment the first handed work in for, two competencies (Safety for
     * Head office with a library document attached, Sales for the third member directly), and an
     * api webhook triggered twice (two pending deliveries).
     *
     * `viewer` joins Branch, added by the administrator (the owner need not know it); members of a
     * department take its levels, so Branch carries the viewer's levels (its other member too).
     */
    async organization(owner: Caller, viewer?: { caller: Caller; levels: Levels }) {
      const as = seed(t).as(owner);
      const organization = await as.organization();
      const head = await organization.department('Head office');
      const branch = await organization.department('Branch', { parent: head, ...viewer?.levels });
      // The first member hands in work, so it acts and needs an application; the others never act.
      const members = [await as.managedUser(), await as.managedAccount(), await as.managedAccount()] as const;
      await organization.members([members[0]], { department: head });
      await organization.members([members[1]], { department: branch });
      await organization.members([members[2]]);
      if (viewer) await seed(t).admin.organizationOf(organization.id).members([viewer.caller], { department: branch });
      await organization.leaders(branch, [members[1]]);

      const cls = await organization.class();
      await cls.members([members[0], members[1]]);
      await members[0].submit(await cls.assignment({ title: 'Task' }));

      const handbook = await organization.document('Handbook');
      await (await organization.competency('Safety', { documents: [handbook] })).assign({ departments: [head] });
      await (await organization.competency('Sales')).assign({ members: [members[2].user.id] });

      const webhook = await organization.webhook({ title: 'Hook' });
      for (const n of [1, 2]) await organization.trigger(webhook, { n });
      return { organizationId: organization.id, classId: cls.id, members };
    },
  };
}
