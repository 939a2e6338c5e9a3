import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { UserPlus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Badge, Button, ConfirmDialog, EmptyState, Notice, Panel, SkeletonText, Table, TBody, Td, Th, THead, toast, Tr } from '@web/components/ui';
import { adminsQuery, adminUserKeys, adminUsersApi, errorText, userListQuery } from './api';
import { formatDateTime } from '@web/lib/format';
import { RoleBadge, SearchBox } from './controls';
import type { Viewer } from './user-detail';

function PromoteSearch({ onPromoted }: { onPromoted: () => Promise<void> }) {
  const [term, setTerm] = useState('');
  const onChange = useCallback((v: string) => setTerm(v), []);
  const q = useQuery({ ...userListQuery({ q: term, role: 'user', pageSize: 8, sort: 'username', dir: 'asc' }), enabled: term.length >= 2 });
  const promote = async (id: string, username: string) => {
    try {
      await adminUsersApi.promote(id);
      toast.success(`${username} is now an admin`, 'They need two-factor before they can open the back office.');
      await onPromoted();
    } catch (err) {
      toast.error(`Could not promote ${username}`, errorText(err));
      throw err;
    }
  };
  return (
    <Panel id="promote" title="Promote a user" description="Find a user by email or username. They must have confirmed their email and not be banned.">
      <div className="space-y-4">
        <SearchBox label="Find a user to promote" value={term} onChange={onChange} placeholder="At least 2 characters" />
        {term.length < 2 ? null : q.isError ? (
          <Notice tone="danger">{errorText(q.error)}</Notice>
        ) : !q.data ? (
          <SkeletonText lines={3} label="Searching users" />
        ) : q.data.items.length === 0 ? (
          <p className="text-sm text-zinc-400" role="status">
            No user (who is not already an admin) matches “{term}”.
          </p>
        ) : (
          <ul aria-label="Matching users" className="divide-y divide-white/10 rounded-xl border border-white/10">
            {q.data.items.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-white">{u.username}</p>
                  <p className="truncate text-sm text-zinc-400">{u.email}</p>
                </div>
                {u.banned ? (
                  <Badge tone="danger">Banned</Badge>
                ) : !u.emailVerified ? (
                  <Badge tone="warning">Email not confirmed</Badge>
                ) : (
                  <ConfirmDialog
                    title={`Make ${u.username} an admin?`}
                    description="Admins can see every user, ban and unban users, edit the catalog and adjust balances. Every action is written to the audit log."
                    confirmLabel="Promote"
                    onConfirm={() => promote(u.id, u.username)}
                    trigger={
                      <Button size="sm" variant="secondary" aria-label={`Promote ${u.username}`}>
                        <UserPlus aria-hidden="true" className="size-4" /> Promote
                      </Button>
                    }
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}

/** /admin/admins (owner only): admins with last sign-in and two-factor; promote and demote. */
export function AdminsManager({ viewer }: { viewer: Viewer }) {
  const q = useQuery({ ...adminsQuery, enabled: viewer.role === 'owner' });
  const qc = useQueryClient();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: adminUserKeys.all });
  };
  if (viewer.role !== 'owner') {
    return (
      <Notice tone="warning" title="Only an owner manages admins" live={false}>
        Ask an owner to promote or demote an admin. You can still manage users at{' '}
        <Link to="/admin/users" className="underline">
          Users
        </Link>
        .
      </Notice>
    );
  }
  const demote = async (id: string, username: string) => {
    try {
      await adminUsersApi.demote(id);
      toast.success(`${username} is a user again`, 'Their admin access ended at once.');
      await refresh();
    } catch (err) {
      toast.error(`Could not demote ${username}`, errorText(err));
      throw err;
    }
  };
  return (
    <div className="space-y-6">
      <Panel id="admins" title="Admins and owners">
        {q.isError ? (
          <Notice
            tone="danger"
            title="Admins could not load"
            action={
              <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
                Try again
              </Button>
            }
          >
            {errorText(q.error)}
          </Notice>
        ) : !q.data ? (
          <SkeletonText lines={4} label="Loading admins" />
        ) : q.data.length === 0 ? (
          <EmptyState title="No admins" />
        ) : (
          <Table caption="Admin and owner accounts" captionHidden>
            <THead>
              <Tr>
                <Th>Username</Th>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Two-factor</Th>
                <Th>Last sign-in</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {q.data.map((a) => (
                <Tr key={a.id}>
                  <Td>
                    <Link to="/admin/users/$id" params={{ id: a.id }} className="font-semibold text-violet-300 hover:underline">
                      {a.username}
                    </Link>
                    {a.id === viewer.id ? <span className="ml-2 text-xs text-zinc-400">(you)</span> : null}
                  </Td>
                  <Td>{a.email}</Td>
                  <Td>
                    <RoleBadge role={a.role} />
                  </Td>
                  <Td>{a.twoFactorEnabled ? <Badge tone="success">On</Badge> : <Badge tone="warning">Not set up</Badge>}</Td>
                  <Td>{a.lastSignInAt ? formatDateTime(a.lastSignInAt) : 'Never'}</Td>
                  <Td className="text-right">
                    {a.id === viewer.id ? (
                      <span className="text-xs text-zinc-400">You cannot demote yourself</span>
                    ) : a.role === 'owner' ? (
                      <span className="text-xs text-zinc-400">Owners stay owners</span>
                    ) : (
                      <ConfirmDialog
                        title={`Demote ${a.username}?`}
                        description="They become a regular user at once and lose every back-office page. You can promote them again later."
                        confirmLabel="Demote"
                        variant="danger"
                        onConfirm={() => demote(a.id, a.username)}
                        trigger={
                          <Button size="sm" variant="secondary" aria-label={`Demote ${a.username}`}>
                            Demote
                          </Button>
                        }
                      />
                    )}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Panel>
      <PromoteSearch onPromoted={refresh} />
    </div>
  );
}
